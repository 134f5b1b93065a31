package io.tributary.meta.ddl;

import io.tributary.storage.Keyspace;
import io.tributary.storage.ReadView;
import io.tributary.storage.WriteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Where each materialized view's stream plan, as its {@link io.tributary.plan.PlanFingerprint},
 * is kept: {@code plan/<view id>} in the catalog keyspace, written with the view's record at
 * CREATE and removed with it. At restart the view's job starts only if its query still plans to
 * the stored fingerprint, since its state tables belong to the operators of that plan. Stateless.
 */
final class StoredPlans {
    private static final String PREFIX = "plan/";

    private StoredPlans() {}

    static byte[] key(int viewId) {
        return (PREFIX + viewId).getBytes(StandardCharsets.UTF_8);
    }

    static void stage(WriteBuffer buffer, int viewId, String fingerprint) {
        buffer.put(Keyspace.CATALOG, key(viewId), fingerprint.getBytes(StandardCharsets.UTF_8));
    }

    /** The stored fingerprint of view {@code viewId}, or null for a view created before plans were stored. */
    static String read(ReadView view, int viewId) {
        byte[] value = view.get(Keyspace.CATALOG, key(viewId));
        return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }
}

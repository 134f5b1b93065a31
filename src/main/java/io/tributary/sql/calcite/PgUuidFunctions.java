package io.tributary.sql.calcite;

import io.tributary.common.types.PgUuidText;
import java.security.SecureRandom;
import java.util.UUID;
import org.apache.calcite.linq4j.function.NonDeterministic;

/**
 * SQL functions over PostgreSQL's uuid, registered by {@link CatalogSchema}; called from Calcite's
 * generated code on a query's thread.
 */
public final class PgUuidFunctions {
    /** One per thread: SecureRandom serialises its callers otherwise. */
    private static final ThreadLocal<SecureRandom> RANDOM = ThreadLocal.withInitial(SecureRandom::new);

    private PgUuidFunctions() {}

    /**
     * {@code gen_random_uuid()}: a version-4 uuid of 122 random bits, a new one at every call, so
     * views refuse it as they refuse {@code random()}.
     */
    @NonDeterministic
    public static UUID gen_random_uuid() {
        SecureRandom random = RANDOM.get();
        long high = random.nextLong() & ~0xF000L | 0x4000L;
        long low = random.nextLong() & 0x3FFFFFFFFFFFFFFFL | 0x8000000000000000L;
        return new UUID(high, low);
    }

    /** A text read as a uuid by PostgreSQL's input ({@code text_column::uuid}); 22P02 for bad text. */
    public static UUID pg_uuid_in(String text) {
        return text == null ? null : PgUuidText.parse(text);
    }

    /**
     * The canonical text of a uuid (null for NULL), whose string order is PostgreSQL's uuid order
     * (unsigned bytes): what {@link UuidPlans} sorts and compares by, since Calcite compares uuids
     * with {@link UUID#compareTo}, which is signed. Takes {@code Object} because Calcite's
     * interpreter hands uuids over untyped.
     */
    public static String pg_uuid_order(Object u) {
        return u == null ? null : PgUuidText.format((UUID) u);
    }
}

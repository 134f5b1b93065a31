package io.tributary.meta.ddl;

import io.tributary.catalog.TableDef;
import io.tributary.common.TributaryException;
import io.tributary.plan.PlanFingerprint;
import io.tributary.plan.ViewPlan;
import io.tributary.plan.ViewPlanner;
import io.tributary.storage.Keyspace;
import io.tributary.storage.ReadView;
import io.tributary.storage.WriteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Where each materialized view's stream plan, as its {@link io.tributary.plan.PlanFingerprint},
 * is kept: {@code plan/<view id>} in the catalog keyspace, written with the view's record at
 * CREATE and removed with it. At restart the view's job starts only if its query still plans to
 * the stored fingerprint, since its state tables belong to the operators of that plan; a view an
 * earlier build created may match that build's typing instead ({@link #planAsBuilt}). Stateless.
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

    /**
     * The plan of {@code view}'s query, named {@code name}, that its state was built by: the one
     * {@code planner} gives now if it matches {@code stored}, else the first it gives with an earlier
     * build's typing ({@link ViewPlanner#planAsEarlierBuild}, newest first) that matches. Called where a view
     * with a stored plan is planned again to run or keep its state (restart, rename, the plan's
     * drawing); any thread.
     *
     * @param stored the view's stored fingerprint (see {@link #read})
     * @param name the name to plan under: the view's own, or a new one being given it
     * @return null when neither matches
     * @throws TributaryException the error of today's planning when neither plans and matches
     */
    static ViewPlan planAsBuilt(ViewPlanner planner, TableDef view, String stored, String name) {
        TributaryException refused = null;
        try {
            ViewPlan now = planner.plan(view.query(), view.id(), view.name());
            if (PlanFingerprint.matches(stored, now.root())) {
                return name.equals(view.name()) ? now : planner.plan(view.query(), view.id(), name);
            }
        } catch (TributaryException e) {
            refused = e;
        }
        for (int build = 0; build < planner.earlierBuilds(); build++) {
            ViewPlan earlier = earlierOrNull(planner, view, build);
            if (earlier != null && PlanFingerprint.matches(stored, earlier.root())) {
                return name.equals(view.name())
                        ? earlier
                        : planner.planAsEarlierBuild(view.query(), view.id(), name, build);
            }
        }
        if (refused != null) {
            throw refused;
        }
        return null;
    }

    /**
     * {@code view}'s plan with an earlier build's typing, or null when it does not plan so: a
     * fallback tried only after today's plan did not fit, whose failure (of any kind: that typing
     * is exercised by few views) must leave the view as today's planning left it.
     */
    private static ViewPlan earlierOrNull(ViewPlanner planner, TableDef view, int build) {
        try {
            return planner.planAsEarlierBuild(view.query(), view.id(), view.name(), build);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * {@code view}'s plan with the newest earlier build's typing that plans it so that {@code fits}
     * holds, or null (see {@link #earlierOrNull(ViewPlanner, TableDef, int)}): for views whose
     * plan was not stored, or whose columns are what must match.
     */
    static ViewPlan earlierFitting(ViewPlanner planner, TableDef view, java.util.function.Predicate<ViewPlan> fits) {
        for (int build = 0; build < planner.earlierBuilds(); build++) {
            ViewPlan earlier = earlierOrNull(planner, view, build);
            if (earlier != null && fits.test(earlier)) {
                return earlier;
            }
        }
        return null;
    }
}

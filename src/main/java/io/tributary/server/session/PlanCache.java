package io.tributary.server.session;

import io.tributary.common.types.RelativeDateTimeInput;
import io.tributary.sql.StatementPlan;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Plans of recently executed statements of one session, by statement text, so that a statement
 * sent again (psql and simple-query clients re-send text every time) skips Calcite's planning and
 * code generation. A plan is lent to one statement at a time, since an executing plan's cursor
 * must not be reset by a second execution; a plan made under an older catalog is dropped, and so
 * is one of a statement naming {@code 'now'} or {@code 'today'} ({@link RelativeDateTimeInput}).
 * Session thread only.
 */
final class PlanCache {
    private static final int CAPACITY = 64;

    private static final class Entry {
        final StatementPlan plan;
        final long catalogVersion;
        boolean lent;

        Entry(StatementPlan plan, long catalogVersion) {
            this.plan = plan;
            this.catalogVersion = catalogVersion;
        }
    }

    private final Map<String, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);

    /** The cached plan for {@code sql}, now lent to the caller, or null when none is usable. */
    StatementPlan borrow(String sql, long catalogVersion) {
        Entry e = entries.get(sql);
        if (e == null || e.lent) {
            return null;
        }
        if (e.catalogVersion != catalogVersion) {
            entries.remove(sql);
            e.plan.close();
            return null;
        }
        e.lent = true;
        return e.plan;
    }

    /**
     * Takes back a plan the caller no longer uses (borrowed or freshly made). Plans that cannot be
     * kept (stale, or another plan for the same text is cached) are closed.
     */
    void giveBack(String sql, StatementPlan plan, long planVersion, long currentVersion) {
        if (RelativeDateTimeInput.mentioned(sql)) {
            plan.close(); // its 'now' or 'today' was read when it was planned: the next run reads the clock again
            return;
        }
        Entry e = entries.get(sql);
        if (e != null && e.plan == plan) {
            e.lent = false;
            if (planVersion != currentVersion) {
                entries.remove(sql);
                plan.close();
            }
            return;
        }
        if (e != null || planVersion != currentVersion) {
            plan.close();
            return;
        }
        entries.put(sql, new Entry(plan, planVersion));
        evictBeyondCapacity();
    }

    private void evictBeyondCapacity() {
        Iterator<Entry> it = entries.values().iterator();
        while (entries.size() > CAPACITY && it.hasNext()) {
            Entry oldest = it.next();
            if (!oldest.lent) {
                it.remove();
                oldest.plan.close();
            }
        }
    }

    /** Closes every plan not lent out; called when the session ends. */
    void close() {
        for (Entry e : entries.values()) {
            if (!e.lent) {
                e.plan.close();
            }
        }
        entries.clear();
    }
}

package io.tributary.meta.write;

import io.tributary.catalog.CheckDef;
import io.tributary.catalog.TableDef;
import io.tributary.plan.ScalarExpr;
import io.tributary.plan.ViewPlanner;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The planned CHECK constraints of a database's tables, planned when a writer of a table first
 * needs them and again only when the table's definition changes (its checks or columns). Any
 * thread.
 */
public final class TableChecks {
    private final ViewPlanner planner;
    private final Map<Integer, CheckConstraints> planned = new ConcurrentHashMap<>();

    public TableChecks(ViewPlanner planner) {
        this.planner = planner;
    }

    /** The constraints of {@code table} as the writer has it, or null when it has none. */
    public CheckConstraints of(TableDef table) {
        if (table.checks().isEmpty()) {
            return null;
        }
        CheckConstraints cached = planned.get(table.id());
        if (cached != null && cached.planned().equals(table.checks()) && cached.columnsOf(table)) {
            return cached;
        }
        List<ScalarExpr> conditions = new ArrayList<>(table.checks().size());
        for (CheckDef c : table.checks()) {
            conditions.add(planner.planCheck(table, c.expression()).condition());
        }
        CheckConstraints made = new CheckConstraints(table, conditions);
        planned.put(table.id(), made);
        return made;
    }
}

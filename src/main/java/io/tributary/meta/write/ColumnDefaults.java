package io.tributary.meta.write;

import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.TableDef;
import io.tributary.common.TributaryException;
import io.tributary.common.types.Values;
import io.tributary.plan.ScalarExpr;
import io.tributary.plan.ViewPlanner;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The values ON DELETE and ON UPDATE SET DEFAULT give a database's referencing columns: each column's DEFAULT,
 * planned when a cascade first needs it and again only when the column's definition changes. Any
 * thread.
 */
public final class ColumnDefaults {
    private final ViewPlanner planner;
    /** Per table id and column index, the column as planned and its planned DEFAULT. */
    private final Map<Long, Planned> planned = new ConcurrentHashMap<>();

    private record Planned(ColumnDef column, ScalarExpr value) {}

    public ColumnDefaults(ViewPlanner planner) {
        this.planner = planner;
    }

    /**
     * The value of column {@code column}'s DEFAULT in {@code table} as the writer has it, assigned
     * to the column's type; null for a column without one, as PostgreSQL's SET DEFAULT sets it NULL.
     *
     * @param event {@code ON DELETE} or {@code ON UPDATE}, the action's event, for the error
     * @throws TributaryException 0A000 for a serial or identity column (its DEFAULT draws from a
     *     sequence) or a volatile DEFAULT (see {@link ViewPlanner#planDefault}); the error
     *     evaluating or assigning it raises
     */
    Object value(TableDef table, int column, String event) {
        ColumnDef def = table.columns().get(column);
        if (def.identity() != null) {
            throw TributaryException.notSupported(
                    event + " SET DEFAULT of column \"" + def.name() + "\", whose DEFAULT draws from a sequence");
        }
        if (def.defaultExpr() == null) {
            return null;
        }
        long key = (long) table.id() << 32 | column;
        Planned p = planned.get(key);
        if (p == null || !p.column().equals(def)) {
            p = new Planned(def, planner.planDefault(table, column));
            planned.put(key, p);
        }
        Object value = p.value().eval(new Object[table.columns().size()]);
        return Values.assign(value, p.value().type(), def.type());
    }
}

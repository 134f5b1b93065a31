package io.tributary.sql.calcite;

import io.tributary.batch.KeyRange;
import io.tributary.batch.Snapshot;
import io.tributary.batch.TableScan;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.VirtualNodes;
import io.tributary.common.types.DataType;
import io.tributary.common.types.PgTextFormat;
import io.tributary.common.types.TypeKind;
import io.tributary.common.types.Values;
import io.tributary.sql.KeyRangeDmlText;
import io.tributary.sql.PreparedQuery;
import io.tributary.sql.QueryCursor;
import io.tributary.sql.ReadContext;
import io.tributary.sql.ResultColumn;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;

/**
 * The rows an UPDATE or DELETE planned by {@link KeyRangeDml} changes, as the general path's query
 * gives them: each row of the table (every column, hidden ones too) whose first primary-key column
 * lies between the bounds, followed by the values of the assignments, already of their target
 * column's type. One range read of the statement's snapshot per execution; no Calcite code runs.
 * Opened and read on the session's thread, within the session's read context.
 */
final class KeyRangeQuery implements PreparedQuery {
    /** One assignment: a constant or parameter, or the row's own column plus or minus one. */
    record Assignment(KeyRangeDmlText.Operand operand, int base, boolean subtract) {
        static Assignment constant(KeyRangeDmlText.Operand operand) {
            return new Assignment(operand, -1, false);
        }

        static Assignment arithmetic(int base, boolean subtract, KeyRangeDmlText.Operand operand) {
            return new Assignment(operand, base, subtract);
        }
    }

    /**
     * A range of up to this many keys of a one-column primary key is read by one batched point
     * read of each key instead of a scan. The scan seeks in every vnode (256), each with its own
     * native iterator and read options, since the vnode prefix scatters consecutive keys: in perf
     * of {@code bench stream}, 500-key UPDATEs and DELETEs spent about 6% of the process's CPU in
     * those seeks, where a point read of a key costs a fraction of a seek.
     */
    private static final long POINT_READ_KEYS = 4L * VirtualNodes.COUNT;

    private final TableDef table;
    private final ReadContext context;
    private final KeyRangeDmlText.Operand low;
    private final KeyRangeDmlText.Operand high;
    private final List<Assignment> assignments;
    private final List<DataType> paramTypes;
    private final int[] targets;
    private final List<ResultColumn> columns;
    private final DataType keyType;
    /** Whether the bounds name the whole primary key, so a bound pair is one point read. */
    private final boolean pointKey;

    KeyRangeQuery(
            TableDef table,
            ReadContext context,
            KeyRangeDmlText.Operand low,
            KeyRangeDmlText.Operand high,
            List<Assignment> assignments,
            List<DataType> paramTypes,
            int[] targets) {
        this.table = table;
        this.context = context;
        this.low = low;
        this.high = high;
        this.assignments = assignments;
        this.paramTypes = paramTypes;
        this.targets = targets;
        this.keyType = table.columns().get(table.primaryKey()[0]).type();
        this.pointKey = table.primaryKey().length == 1;
        List<ResultColumn> cols = new ArrayList<>();
        table.columns().forEach(c -> cols.add(new ResultColumn(c.name(), c.type())));
        for (int t : targets) {
            cols.add(new ResultColumn(
                    table.columns().get(t).name(), table.columns().get(t).type()));
        }
        this.columns = List.copyOf(cols);
    }

    @Override
    public List<ResultColumn> columns() {
        return columns;
    }

    @Override
    public List<DataType> paramTypes() {
        return paramTypes;
    }

    @Override
    public QueryCursor open(List<Object> params) {
        Object[] values = new Object[paramTypes.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = param(params.get(i), paramTypes.get(i));
        }
        Object lo = operand(low, keyType, values);
        Object hi = operand(high, keyType, values);
        Object[] settings = new Object[assignments.size()];
        for (int i = 0; i < settings.length; i++) {
            Assignment a = assignments.get(i);
            DataType target = table.columns().get(targets[i]).type();
            Object operand = a.operand().isParam()
                    ? values[a.operand().param() - 1]
                    : a.operand().constant();
            // a whole SET value is assigned as INSERT assigns it, once: PostgreSQL folds it while
            // planning, so its errors come even when no row matches
            settings[i] = a.base() < 0 ? Values.assign(operand, null, target) : operand;
        }
        if (lo == null || hi == null || ((Number) lo).longValue() > ((Number) hi).longValue()) {
            return new Rows(Collections.emptyIterator(), settings);
        }
        Snapshot snapshot = context.snapshot();
        if (pointKey && lo.equals(hi)) {
            Object[] row = snapshot.lookup(table, new Object[] {lo});
            List<Object[]> rows = row == null ? List.of() : Collections.singletonList(row);
            return new Rows(rows.iterator(), settings);
        }
        long first = ((Number) lo).longValue();
        long last = ((Number) hi).longValue();
        if (pointKey && last - first >= 0 && last - first < POINT_READ_KEYS) {
            int count = (int) (last - first + 1);
            List<Object> keys = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                // counted, not compared with last: last may be the type's greatest value
                keys.add(Values.assign(first + i, null, keyType));
            }
            return new Rows(snapshot.lookupAll(table, keys).iterator(), settings);
        }
        return new Rows(snapshot.scan(table, new KeyRange(lo, true, hi, true)), settings);
    }

    /** A client's parameter as a canonical value of {@code type}: text is read as the type. */
    private static Object param(Object value, DataType type) {
        if (value == null) {
            return null;
        }
        Object v = value instanceof String s && !type.kind().isString() ? PgTextFormat.parse(type, s) : value;
        return Values.assign(v, null, type);
    }

    private static Object operand(KeyRangeDmlText.Operand operand, DataType type, Object[] params) {
        if (operand.isParam()) {
            return params[operand.param() - 1];
        }
        Object c = operand.constant();
        return c == null ? null : Values.assign(c, null, type);
    }

    /** The value of assignment {@code a} for {@code row}; {@code setting} is its operand's value. */
    private Object evaluate(Assignment a, Object setting, Object[] row, DataType target) {
        if (a.base() < 0) {
            return setting;
        }
        Object base = row[a.base()];
        if (base == null || setting == null) {
            return null;
        }
        if (target.kind() == TypeKind.NUMERIC) {
            BigDecimal operand = (BigDecimal) setting;
            BigDecimal value = (BigDecimal) base;
            return Values.assign(a.subtract() ? value.subtract(operand) : value.add(operand), null, target);
        }
        long value = ((Number) base).longValue();
        long operand = setting instanceof BigDecimal d ? KeyRangeDml.integral(d) : ((Number) setting).longValue();
        long result;
        try {
            result = a.subtract() ? Math.subtractExact(value, operand) : Math.addExact(value, operand);
        } catch (ArithmeticException e) {
            throw new TributaryException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "bigint out of range");
        }
        return Values.assign(result, null, target);
    }

    @Override
    public void close() {
        // holds nothing between executions
    }

    /** The matching rows, each with its assignments' values after it. */
    private final class Rows implements QueryCursor {
        /** A {@link TableScan} (closed with this) or the rows read already. */
        private final Iterator<Object[]> rows;

        private final Object[] settings;

        Rows(Iterator<Object[]> rows, Object[] settings) {
            this.rows = rows;
            this.settings = settings;
        }

        @Override
        public Object[] next() {
            if (!rows.hasNext()) {
                return null;
            }
            Object[] row = rows.next();
            int width = row.length;
            Object[] out = java.util.Arrays.copyOf(row, width + settings.length);
            for (int i = 0; i < settings.length; i++) {
                out[width + i] = evaluate(
                        assignments.get(i),
                        settings[i],
                        row,
                        table.columns().get(targets[i]).type());
            }
            return out;
        }

        @Override
        public void close() {
            if (rows instanceof TableScan scan) {
                scan.close();
            }
        }
    }
}

package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import io.tributary.plan.ScalarExpr;
import java.util.List;
import java.util.Locale;
import java.util.TimeZone;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.linq4j.QueryProvider;
import org.apache.calcite.linq4j.function.Function1;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexExecutorImpl;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * A scalar expression compiled to Java by Calcite's code generator (the code its enumerable
 * engine runs for SELECT), once per plan. {@link #eval} converts the row's canonical values that
 * Calcite represents differently (times, timestamps, intervals, bytea) into Calcite's form, runs
 * the generated function and converts its result back to the canonical value of {@link #type()}.
 * Immutable; {@code eval} keeps nothing between calls, so actors share one instance.
 */
final class CompiledExpression implements ScalarExpr {
    private static final JavaTypeFactory TYPE_FACTORY = new PgJavaTypeFactory();
    private static final TimeZone UTC = TimeZone.getTimeZone("UTC");

    private final Function1<DataContext, Object[]> function;
    private final int[] convertedColumns;
    /** Every input column the expression reads. */
    private final int[] inputColumns;

    private final DataType[] convertedTypes;
    private final DataType type;
    private final SqlTypeName calciteType;
    private final String text;

    private CompiledExpression(
            Function1<DataContext, Object[]> function,
            int[] convertedColumns,
            int[] inputColumns,
            DataType[] convertedTypes,
            DataType type,
            SqlTypeName calciteType,
            String text) {
        this.function = function;
        this.convertedColumns = convertedColumns;
        this.inputColumns = inputColumns;
        this.convertedTypes = convertedTypes;
        this.type = type;
        this.calciteType = calciteType;
        this.text = text;
    }

    /**
     * Compiles {@code expr}, whose input references index rows of {@code rowType}. Only the columns
     * it reads are converted to Calcite's representation at each {@link #eval}.
     *
     * @param columnTypes the canonical type of every column of the rows {@code eval} gets
     */
    static CompiledExpression compile(
            RexBuilder rexBuilder, RexNode expr, RelDataType rowType, List<DataType> columnTypes) {
        expr = MillisecondCalls.rewrite(rexBuilder, expr);
        expr = ArrayNullabilityCasts.rewrite(rexBuilder, expr);
        int[] read = RelOptUtil.InputFinder.bits(expr).toArray();
        int[] converted = java.util.Arrays.stream(read)
                .filter(i -> needsConversion(columnTypes.get(i)))
                .toArray();
        DataType[] convertedTypes = new DataType[converted.length];
        for (int i = 0; i < converted.length; i++) {
            convertedTypes[i] = columnTypes.get(converted[i]);
        }
        Function1<DataContext, Object[]> function = RexExecutorImpl.getExecutable(rexBuilder, List.of(expr), rowType)
                .getFunction();
        return new CompiledExpression(
                function,
                converted,
                read,
                convertedTypes,
                TypeMapping.fromRelType(expr.getType()),
                expr.getType().getSqlTypeName(),
                expr.toString());
    }

    private static boolean needsConversion(DataType t) {
        return switch (t.kind()) {
            case TIME, TIMESTAMP, TIMESTAMPTZ, INTERVAL, BYTEA -> true;
            default -> false;
        };
    }

    @Override
    public Object eval(Object[] row) {
        Object[] input = row;
        if (convertedColumns.length > 0) {
            input = row.clone();
            for (int i = 0; i < convertedColumns.length; i++) {
                int c = convertedColumns[i];
                input[c] = TypeMapping.toCalcite(convertedTypes[i], row[c]);
            }
        }
        Object result;
        try {
            result = function.apply(new RowContext(input))[0];
        } catch (TributaryException e) {
            throw e;
        } catch (RuntimeException e) {
            throw runtimeError(e);
        }
        return TypeMapping.fromCalcite(type, calciteType, result);
    }

    /** PostgreSQL's error for a failure of the generated code: a data exception (22xxx). */
    private static TributaryException runtimeError(RuntimeException e) {
        TributaryException translated = SqlErrors.translate(e, "");
        if (!translated.sqlState().equals(SqlState.INTERNAL_ERROR)) {
            return translated;
        }
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return new TributaryException(SqlState.DATA_EXCEPTION, message, e);
    }

    @Override
    public DataType type() {
        return type;
    }

    @Override
    public int[] inputColumns() {
        return inputColumns.clone();
    }

    @Override
    public String toString() {
        return text;
    }

    /** What the generated code reads: the row as {@code inputRecord}, and the session's time zone, UTC. */
    private record RowContext(Object[] row) implements DataContext {
        @Override
        public SchemaPlus getRootSchema() {
            return null;
        }

        @Override
        public JavaTypeFactory getTypeFactory() {
            return TYPE_FACTORY;
        }

        @Override
        public QueryProvider getQueryProvider() {
            return null;
        }

        @Override
        public Object get(String name) {
            if (name.equals("inputRecord")) {
                return row;
            }
            if (name.equals(Variable.TIME_ZONE.camelName)) {
                return UTC;
            }
            if (name.equals(Variable.LOCALE.camelName)) {
                return Locale.ROOT;
            }
            return null;
        }
    }
}

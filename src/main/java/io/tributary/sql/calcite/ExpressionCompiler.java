package io.tributary.sql.calcite;

import io.tributary.common.types.DataType;
import io.tributary.common.types.PgTextFormat;
import io.tributary.plan.Field;
import io.tributary.plan.InputRef;
import io.tributary.plan.Literal;
import io.tributary.plan.ScalarExpr;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.rex.RexVisitorImpl;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.util.TimeString;
import org.apache.calcite.util.TimestampString;

/**
 * Turns Calcite row expressions into plan expressions over a stream node's rows: column
 * references and constants become {@link InputRef} and {@link Literal}, anything else a
 * {@link CompiledExpression}. Rejects what a view cannot maintain (window functions, subqueries
 * left after the rewrites, non-deterministic or time-dependent functions) with 0A000. Arithmetic
 * is compiled with PostgreSQL's semantics ({@link PgArithmetic}: overflow fails with 22003, numeric
 * division has its scale), as a session's queries compute it. One instance per
 * planned query; not thread-safe.
 */
final class ExpressionCompiler {
    private final RexBuilder rexBuilder;
    /** Whose comparisons and casts to compile ({@link PgArithmetic#PgArithmetic(RexBuilder, ViewPlanningBuild)}). */
    private final ViewPlanningBuild build;

    /** A compiler with PostgreSQL's semantics throughout, as queries compute. */
    ExpressionCompiler(RexBuilder rexBuilder) {
        this(rexBuilder, ViewPlanningBuild.CURRENT);
    }

    /** A compiler with {@code build}'s comparisons and casts, as that build's view computed. */
    ExpressionCompiler(RexBuilder rexBuilder, ViewPlanningBuild build) {
        this.rexBuilder = rexBuilder;
        this.build = build;
    }

    /**
     * @param expr an expression over a relational node's fields
     * @param fields the columns of the rows the result is evaluated on
     * @param columns for each field {@code expr} may reference, its column in those rows
     */
    ScalarExpr compile(RexNode expr, List<Field> fields, int[] columns) {
        expr.accept(new SupportCheck());
        RexNode remapped = expr.accept(new RexShuttle() {
            @Override
            public RexNode visitInputRef(RexInputRef ref) {
                return new RexInputRef(columns[ref.getIndex()], ref.getType());
            }
        });
        if (remapped instanceof RexInputRef ref) {
            return new InputRef(ref.getIndex(), fields.get(ref.getIndex()).type());
        }
        if (remapped instanceof RexLiteral literal) {
            DataType type = TypeMapping.fromRelType(literal.getType());
            return new Literal(canonical(literal, type), type);
        }
        RexNode checked =
                remapped.accept(new PgArithmetic(rexBuilder, build)).accept(new ViewTimestamptzCasts(rexBuilder));
        List<DataType> columnTypes = fields.stream().map(Field::type).toList();
        return CompiledExpression.compile(rexBuilder, checked, rowType(fields, checked), columnTypes);
    }

    /**
     * The row type the generated code reads: each column the expression references typed as the
     * reference is (Calcite checks they agree), the others as their canonical type maps.
     */
    private RelDataType rowType(List<Field> fields, RexNode expr) {
        Map<Integer, RelDataType> referenced = new HashMap<>();
        expr.accept(new RexVisitorImpl<Void>(true) {
            @Override
            public Void visitInputRef(RexInputRef ref) {
                referenced.put(ref.getIndex(), ref.getType());
                return null;
            }
        });
        RelDataTypeFactory factory = rexBuilder.getTypeFactory();
        RelDataTypeFactory.Builder b = factory.builder();
        for (int i = 0; i < fields.size(); i++) {
            RelDataType t = referenced.get(i);
            b.add(
                    "c" + i,
                    t != null ? t : TypeMapping.toRelType(factory, fields.get(i).type(), true));
        }
        return b.build();
    }

    /** A literal's value as the canonical value of {@code type}, with every digit of its time parts. */
    private static Object canonical(RexLiteral literal, DataType type) {
        if (literal.isNull()) {
            return null;
        }
        return switch (type.kind()) {
            case BOOLEAN -> literal.getValueAs(Boolean.class);
            case SMALLINT -> literal.getValueAs(BigDecimal.class).shortValueExact();
            case INTEGER -> literal.getValueAs(BigDecimal.class).intValueExact();
            case BIGINT -> literal.getValueAs(BigDecimal.class).longValueExact();
            case REAL -> literal.getValueAs(Double.class).floatValue();
            case DOUBLE -> literal.getValueAs(Double.class);
            case NUMERIC -> literal.getValueAs(BigDecimal.class);
            case VARCHAR, TEXT, BPCHAR -> literal.getValueAs(String.class);
            case DATE -> literal.getValueAs(Integer.class);
            case TIME ->
                PgTextFormat.parseTime(literal.getValueAs(TimeString.class).toString());
            case TIMESTAMP, TIMESTAMPTZ ->
                PgTextFormat.parseTimestamp(
                        literal.getValueAs(TimestampString.class).toString(), false);
            case INTERVAL ->
                TypeMapping.fromCalcite(type, literal.getType().getSqlTypeName(), literal.getValueAs(Long.class));
            case BYTEA -> literal.getValueAs(ByteString.class).getBytes();
            case UUID -> literal.getValueAs(java.util.UUID.class);
            // json constants are calls of PgJsonFunctions and arrays ARRAY[...] calls, never literals
            case JSON, JSONB, ARRAY -> throw new IllegalStateException("a json or array literal");
        };
    }

    /** Rejects what a view cannot maintain; Calcite's own nodes for them never reach code generation. */
    private static final class SupportCheck extends RexVisitorImpl<Void> {
        SupportCheck() {
            super(true);
        }

        @Override
        public Void visitOver(RexOver over) {
            throw UnsupportedInViews.error("window functions are");
        }

        @Override
        public Void visitSubQuery(RexSubQuery subQuery) {
            throw UnsupportedInViews.error("subqueries of this form are");
        }

        @Override
        public Void visitCorrelVariable(RexCorrelVariable variable) {
            throw UnsupportedInViews.error("correlated subqueries are");
        }

        @Override
        public Void visitDynamicParam(RexDynamicParam param) {
            throw UnsupportedInViews.error("parameters are");
        }

        @Override
        public Void visitCall(RexCall call) {
            SqlOperator op = call.getOperator();
            if (TemporalFilterErrors.CURRENT_TIME.contains(op.getName().toUpperCase(Locale.ROOT))) {
                // a view follows the current time only through a temporal filter (TemporalFilters)
                throw UnsupportedInViews.error(op.getName().toLowerCase(Locale.ROOT)
                        + " other than in a temporal filter (a WHERE conjunct comparing a timestamp with"
                        + " now() plus or minus a constant interval) is");
            }
            if (!Determinism.isDeterministic(op)) {
                // a view must equal its query at every epoch; a value that changes by itself cannot
                throw UnsupportedInViews.error(
                        "non-deterministic function " + op.getName().toLowerCase(Locale.ROOT) + " is");
            }
            return super.visitCall(call);
        }
    }
}

package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.List;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Casts whose PostgreSQL meaning Calcite does not share. {@code CAST(x AS NUMERIC)} without a
 * precision keeps every digit of {@code x} in PostgreSQL but rounds to an integer in Calcite,
 * whose DECIMAL has a fixed scale: it becomes {@link PgFunctions#pg_numeric}. A cast to an integer
 * type rounds in PostgreSQL (half away from zero for NUMERIC, half to even for floats) but
 * truncates in Calcite: its operand goes through {@link PgFunctions#pg_round} first. One instance
 * per statement. A predicate or boolean literal cast to int4 becomes 1 or 0, PostgreSQL's cast from
 * boolean, which Calcite lacks; cast to text or varchar it is {@code true} or {@code false}; cast to
 * another number type it is left to Calcite, which refuses it (42846) as PostgreSQL does. PostgreSQL's
 * names ({@code int2}, {@code int4}, {@code int8}, {@code text}) count as the types they name. A
 * cast to {@code numeric(p,s)} rounds half away from zero and fails with 22003 when the value does
 * not fit ({@link PgFunctions#pg_numeric_typmod}); a constant with a fraction or a cast to numeric
 * or a float cast to boolean is 42846, as in PostgreSQL.
 */
final class NumericCast extends StatementRewrite {
    @Override
    public SqlNode visit(SqlCall call) {
        SqlNode visited = super.visit(call);
        if (!(visited instanceof SqlBasicCall cast)
                || cast.getKind() != SqlKind.CAST
                || cast.operandCount() != 2
                || !(cast.operand(1) instanceof SqlDataTypeSpec spec)
                || SqlUtil.isNullLiteral(cast.operand(0), false)
                || cast.operand(0) instanceof org.apache.calcite.sql.SqlDynamicParam) {
            // NULL and parameters have no type of their own: the cast is what types them
            return visited;
        }
        String type = canonicalName(spec);
        boolean unconstrained =
                !(spec.getTypeNameSpec() instanceof SqlBasicTypeNameSpec basic) || basic.getPrecision() < 0;
        if (type.matches("DECIMAL|NUMERIC") && unconstrained && !isBoolean(cast.operand(0))) {
            // a boolean stays Calcite's cast, which refuses it as PostgreSQL does (42846)
            return rewritten(call("pg_numeric", cast.operand(0), cast));
        }
        if (type.matches("DECIMAL|NUMERIC") && !unconstrained && !isBoolean(cast.operand(0))) {
            // PostgreSQL rounds to the scale half away from zero and fails on overflow; Calcite truncates
            SqlBasicTypeNameSpec basic = (SqlBasicTypeNameSpec) spec.getTypeNameSpec();
            cast.setOperand(
                    0, toTypmod(cast.operand(0), basic.getPrecision(), basic.getScale(), cast.getParserPosition()));
            return rewritten(cast);
        }
        if (type.equals("BOOLEAN") && isFractional(cast.operand(0))) {
            throw new TributaryException(
                    SqlState.CANNOT_COERCE,
                    "cannot cast type " + (isFloatCast(cast.operand(0)) ? "double precision" : "numeric")
                            + " to boolean");
        }
        if (type.matches("VARCHAR|TEXT|CHAR") && isBoolean(cast.operand(0))) {
            // PostgreSQL's text of a boolean is true or false (Calcite: TRUE, FALSE)
            cast.setOperand(0, boolText(cast.operand(0), cast.getParserPosition()));
            return rewritten(cast);
        }
        if (type.equals("INTEGER") && isBoolean(cast.operand(0))) {
            return rewritten(boolToInt(cast.operand(0), cast.getParserPosition()));
        }
        if (type.matches("INTEGER|BIGINT|SMALLINT|TINYINT") && !isBoolean(cast.operand(0))) {
            cast.setOperand(0, call("pg_round", cast.operand(0), cast));
            return rewritten(cast);
        }
        return visited;
    }

    /**
     * The Calcite name of the cast's target type: {@code int2}, {@code int4} and {@code int8} (named
     * types, resolved only at validation) as SMALLINT, INTEGER and BIGINT; other names upper-cased.
     */
    private static String canonicalName(SqlDataTypeSpec spec) {
        String name = spec.getTypeNameSpec().getTypeName().getSimple();
        io.tributary.common.types.DataType pg =
                io.tributary.sql.PgTypeNames.lookup(name.toLowerCase(java.util.Locale.ROOT));
        if (pg != null && !(spec.getTypeNameSpec() instanceof SqlBasicTypeNameSpec)) {
            return switch (pg.kind()) {
                case SMALLINT -> "SMALLINT";
                case INTEGER -> "INTEGER";
                case BIGINT -> "BIGINT";
                case TEXT, VARCHAR -> "VARCHAR";
                default -> name.toUpperCase(java.util.Locale.ROOT);
            };
        }
        String upper = name.toUpperCase(java.util.Locale.ROOT);
        return upper.equals("INT") ? "INTEGER" : upper;
    }

    /**
     * Whether {@code node} is a numeric or float by its form: a constant with a fraction or an
     * exponent, a cast to a numeric or float type, or either negated. PostgreSQL has no cast from
     * those to boolean; Calcite's turns them into {@code x <> 0} while converting, before a plan's
     * types are seen. (A numeric column is known only after validation and still casts.)
     */
    private static boolean isFractional(SqlNode node) {
        if (node.getKind() == SqlKind.MINUS_PREFIX || node.getKind() == SqlKind.PLUS_PREFIX) {
            return isFractional(((SqlCall) node).operand(0));
        }
        if (node instanceof org.apache.calcite.sql.SqlNumericLiteral number) {
            return !number.isExact() || number.getScale() == null || number.getScale() > 0;
        }
        if (node instanceof SqlBasicCall call && call.getOperator().getName().equalsIgnoreCase("pg_numeric")) {
            return true; // x::numeric, rewritten by this class before its enclosing cast is visited
        }
        return isFloatCast(node)
                || node.getKind() == SqlKind.CAST
                        && ((SqlCall) node).operand(1) instanceof SqlDataTypeSpec spec
                        && canonicalName(spec).matches("DECIMAL|NUMERIC");
    }

    /** Whether {@code node} is (a negation of) a cast to a float type. */
    private static boolean isFloatCast(SqlNode node) {
        if (node.getKind() == SqlKind.MINUS_PREFIX || node.getKind() == SqlKind.PLUS_PREFIX) {
            return isFloatCast(((SqlCall) node).operand(0));
        }
        return node.getKind() == SqlKind.CAST
                && ((SqlCall) node).operand(1) instanceof SqlDataTypeSpec spec
                && canonicalName(spec).matches("FLOAT|FLOAT4|FLOAT8|REAL|DOUBLE");
    }

    /** The kinds of expression that are boolean whatever their operands are. */
    private static final java.util.Set<SqlKind> BOOLEAN_KINDS = java.util.EnumSet.of(
            SqlKind.EQUALS,
            SqlKind.NOT_EQUALS,
            SqlKind.LESS_THAN,
            SqlKind.LESS_THAN_OR_EQUAL,
            SqlKind.GREATER_THAN,
            SqlKind.GREATER_THAN_OR_EQUAL,
            SqlKind.AND,
            SqlKind.OR,
            SqlKind.NOT,
            SqlKind.IS_NULL,
            SqlKind.IS_NOT_NULL,
            SqlKind.IS_TRUE,
            SqlKind.IS_NOT_TRUE,
            SqlKind.IS_FALSE,
            SqlKind.IS_NOT_FALSE,
            SqlKind.IS_DISTINCT_FROM,
            SqlKind.IS_NOT_DISTINCT_FROM,
            SqlKind.LIKE,
            SqlKind.BETWEEN,
            SqlKind.IN,
            SqlKind.NOT_IN,
            SqlKind.EXISTS);

    /**
     * Whether {@code node} is boolean by its form: a TRUE or FALSE literal or a predicate. A boolean
     * column is not recognised here (its type is known only after validation).
     */
    private static boolean isBoolean(SqlNode node) {
        if (node instanceof org.apache.calcite.sql.SqlLiteral lit) {
            return lit.getTypeName() == org.apache.calcite.sql.type.SqlTypeName.BOOLEAN && lit.getValue() != null;
        }
        return node.isA(BOOLEAN_KINDS);
    }

    /**
     * PostgreSQL's one cast from boolean to an integer type, {@code bool::int4}: 1 for true, 0 for
     * false, NULL for NULL (Calcite has no such cast).
     */
    private static SqlNode boolToInt(SqlNode value, org.apache.calcite.sql.parser.SqlParserPos pos) {
        return boolCase(
                value,
                org.apache.calcite.sql.SqlLiteral.createExactNumeric("1", pos),
                org.apache.calcite.sql.SqlLiteral.createExactNumeric("0", pos),
                pos);
    }

    /** PostgreSQL's {@code bool::text}: {@code true}, {@code false}, NULL (Calcite: TRUE, FALSE). */
    private static SqlNode boolText(SqlNode value, org.apache.calcite.sql.parser.SqlParserPos pos) {
        return boolCase(
                value,
                org.apache.calcite.sql.SqlLiteral.createCharString("true", pos),
                org.apache.calcite.sql.SqlLiteral.createCharString("false", pos),
                pos);
    }

    /** {@code CASE value WHEN TRUE THEN ifTrue WHEN FALSE THEN ifFalse END} (NULL for NULL). */
    private static SqlNode boolCase(
            SqlNode value, SqlNode ifTrue, SqlNode ifFalse, org.apache.calcite.sql.parser.SqlParserPos pos) {
        org.apache.calcite.sql.SqlNodeList when = new org.apache.calcite.sql.SqlNodeList(
                List.of(
                        org.apache.calcite.sql.SqlLiteral.createBoolean(true, pos),
                        org.apache.calcite.sql.SqlLiteral.createBoolean(false, pos)),
                pos);
        org.apache.calcite.sql.SqlNodeList then = new org.apache.calcite.sql.SqlNodeList(List.of(ifTrue, ifFalse), pos);
        return new org.apache.calcite.sql.fun.SqlCase(pos, value, when, then, null);
    }

    /**
     * {@code pg_numeric_typmod(pg_numeric(x), precision, scale)}: {@code x} as PostgreSQL assigns or
     * casts it to {@code numeric(precision, scale)}, rounded half away from zero, 22003 when it does
     * not fit. For the CAST this class rewrites and for an INSERT's constants ({@link InsertSources}).
     */
    static SqlNode toTypmod(SqlNode x, int precision, int scale, SqlParserPos pos) {
        return new SqlBasicCall(
                function("pg_numeric_typmod", pos),
                List.of(
                        pgNumeric(x, pos),
                        SqlLiteral.createExactNumeric(Integer.toString(precision), pos),
                        SqlLiteral.createExactNumeric(Integer.toString(Math.max(scale, 0)), pos)),
                pos);
    }

    /** {@code pg_numeric(x)}: {@code x::numeric}, keeping every digit of {@code x}. */
    static SqlNode pgNumeric(SqlNode x, SqlParserPos pos) {
        return new SqlBasicCall(function("pg_numeric", pos), List.of(x), pos);
    }

    private static SqlNode call(String name, SqlNode argument, SqlCall at) {
        return new SqlBasicCall(function(name, at.getParserPosition()), List.of(argument), at.getParserPosition());
    }

    /** The schema function {@code name} (one of {@link PgFunctions}), resolved at validation. */
    private static org.apache.calcite.sql.SqlUnresolvedFunction function(String name, SqlParserPos pos) {
        return new org.apache.calcite.sql.SqlUnresolvedFunction(
                new SqlIdentifier(List.of(name), pos),
                null,
                null,
                null,
                null,
                org.apache.calcite.sql.SqlFunctionCategory.USER_DEFINED_FUNCTION);
    }
}

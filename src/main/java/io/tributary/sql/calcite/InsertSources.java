package io.tributary.sql.calcite;

import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import io.tributary.common.types.PgTextFormat;
import io.tributary.common.types.TypeKind;
import io.tributary.sql.StatementPlan;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlIntervalLiteral;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * What {@link CalciteFrontend} needs to know of an INSERT's source before planning it: the rows of a
 * VALUES list that holds only constants (read without planning a query), the number of expressions
 * each row gives, and the column types that bare parameters take, as in PostgreSQL. Stateless; any
 * thread.
 */
final class InsertSources {
    private InsertSources() {}

    /**
     * Calcite cannot type a bare parameter in a select list or VALUES; where it feeds a column,
     * it takes the column's type, as in PostgreSQL.
     */
    static void typeBareParameters(SqlNode source, TableDef table, int[] targets) {
        if (source instanceof SqlSelect select) {
            SqlNodeList items = select.getSelectList();
            for (int i = 0; i < items.size() && i < targets.length; i++) {
                items.set(
                        i,
                        typedParameter(
                                items.get(i), table.columns().get(targets[i]).type()));
            }
        } else if (source.getKind() == SqlKind.VALUES) {
            boolean severalRows = ((SqlCall) source).operandCount() > 1;
            for (SqlNode rowNode : ((SqlCall) source).getOperandList()) {
                if (rowNode instanceof SqlCall row && row.getKind() == SqlKind.ROW) {
                    for (int i = 0; i < row.operandCount() && i < targets.length; i++) {
                        if (severalRows
                                && row.operand(i) instanceof org.apache.calcite.sql.SqlCharStringLiteral
                                && table.columns().get(targets[i]).type().kind() == TypeKind.ARRAY) {
                            // the rows' common type would be the array type, and Calcite cannot
                            // cast text to an array at run time
                            throw TributaryException.notSupported(
                                    "array text beside an array expression in one column of a multi-row"
                                            + " VALUES; cast it ('{a,b}'::text[]) or write ARRAY[...]");
                        }
                        DataType type = table.columns().get(targets[i]).type();
                        row.setOperand(
                                i,
                                severalRows && isFloat(type) && row.operand(i) instanceof SqlCharStringLiteral
                                        ? floatText(row.operand(i), type)
                                        : typedParameter(row.operand(i), type));
                    }
                }
            }
        }
    }

    /**
     * {@code CAST(node AS type)} for a bare parameter, or for a number constant feeding a
     * floating-point or NUMERIC column; else the node unchanged. The constants are cast because
     * Calcite types a VALUES column that mixes {@code 2.5} and {@code 1e10} (or NULL) as DOUBLE
     * but keeps each constant's own type, which its planner and code generator then mishandle (an
     * internal error); cast to the column's type, every row agrees, and PostgreSQL's assignment
     * cast does the same.
     */
    static SqlNode typedParameter(SqlNode node, DataType type) {
        if (!(node instanceof SqlDynamicParam) && !(isNumberConstant(node) && isFractional(type))) {
            return node;
        }
        SqlTypeName name = switch (type.kind()) {
            case BOOLEAN -> SqlTypeName.BOOLEAN;
            case SMALLINT -> SqlTypeName.SMALLINT;
            case INTEGER -> SqlTypeName.INTEGER;
            case BIGINT -> SqlTypeName.BIGINT;
            case REAL -> SqlTypeName.REAL;
            case DOUBLE -> SqlTypeName.DOUBLE;
            case NUMERIC -> SqlTypeName.DECIMAL;
            case VARCHAR, TEXT, BPCHAR -> SqlTypeName.VARCHAR;
            case DATE -> SqlTypeName.DATE;
            case TIME -> SqlTypeName.TIME;
            case TIMESTAMP -> SqlTypeName.TIMESTAMP;
            case TIMESTAMPTZ -> SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
            case BYTEA -> SqlTypeName.VARBINARY;
            case UUID -> SqlTypeName.UUID;
            case INTERVAL, JSON, JSONB, ARRAY -> null;
        };
        if (name == null) {
            return node;
        }
        SqlParserPos pos = node.getParserPosition();
        if (name == SqlTypeName.DECIMAL && type.precision() <= 0) {
            return unconstrainedNumeric(node, pos);
        }
        SqlBasicTypeNameSpec spec = name == SqlTypeName.DECIMAL
                ? new SqlBasicTypeNameSpec(name, type.precision(), Math.max(type.scale(), 0), pos)
                : new SqlBasicTypeNameSpec(name, pos);
        if (name == SqlTypeName.DECIMAL && !(node instanceof SqlDynamicParam)) {
            // PostgreSQL's assignment to numeric(p,s) rounds half away from zero (Calcite's cast
            // truncates: 1.235 gave 1.23) and fails with 22003 when the value does not fit
            node = NumericCast.toTypmod(node, type.precision(), type.scale(), pos);
        }
        return SqlStdOperatorTable.CAST.createCall(pos, node, new SqlDataTypeSpec(spec, pos));
    }

    /**
     * A constant or parameter typed as an unconstrained NUMERIC column. Calcite's bare {@code
     * DECIMAL} is DECIMAL(19,0), so a cast to it made {@code INSERT INTO t (n) SELECT 4.75} store 4;
     * a constant becomes {@code pg_numeric(c)}, which keeps its digits as {@code c::numeric} does,
     * and a parameter is cast to the DECIMAL that stands for an unconstrained NUMERIC ({@link
     * TypeMapping#toRelType}), whose bound value keeps its own scale.
     */
    private static SqlNode unconstrainedNumeric(SqlNode node, SqlParserPos pos) {
        if (!(node instanceof SqlDynamicParam)) {
            return NumericCast.pgNumeric(node, pos);
        }
        SqlBasicTypeNameSpec spec = new SqlBasicTypeNameSpec(
                SqlTypeName.DECIMAL,
                TributaryTypeSystem.MAX_NUMERIC_PRECISION,
                TypeMapping.UNCONSTRAINED_NUMERIC_SCALE,
                pos);
        return SqlStdOperatorTable.CAST.createCall(pos, node, new SqlDataTypeSpec(spec, pos));
    }

    /**
     * A number literal, possibly negated, or {@link ExponentLiterals}' form of one with an exponent
     * ({@code 1e300} is {@code CAST(1000...0 AS DECIMAL(301, 0))}).
     */
    private static boolean isNumberConstant(SqlNode node) {
        if (node instanceof SqlCall call
                && (call.getKind() == SqlKind.MINUS_PREFIX || call.getKind() == SqlKind.CAST)) {
            return isNumberConstant(call.operand(0));
        }
        return node instanceof SqlNumericLiteral;
    }

    /**
     * A string constant in a multi-row VALUES feeding a float column, read as that column's type:
     * PostgreSQL assigns each row's {@code 'NaN'} or {@code 'Infinity'} to the column, while
     * Calcite would type the VALUES column from its number constants first (numeric beside
     * {@code 1e300}, which has no NaN, or an integer: 22P02).
     */
    private static SqlNode floatText(SqlNode text, DataType type) {
        SqlParserPos pos = text.getParserPosition();
        SqlTypeName name = type.kind() == TypeKind.REAL ? SqlTypeName.REAL : SqlTypeName.DOUBLE;
        return SqlStdOperatorTable.CAST.createCall(
                pos, text, new SqlDataTypeSpec(new SqlBasicTypeNameSpec(name, pos), pos));
    }

    private static boolean isFloat(DataType type) {
        return type.kind() == TypeKind.REAL || type.kind() == TypeKind.DOUBLE;
    }

    private static boolean isFractional(DataType type) {
        return switch (type.kind()) {
            case REAL, DOUBLE, NUMERIC -> true;
            default -> false;
        };
    }

    static void checkArity(int expressions, int targets) {
        if (expressions > targets) {
            throw new TributaryException(SqlState.SYNTAX_ERROR, "INSERT has more expressions than target columns");
        }
        if (expressions < targets) {
            throw new TributaryException(SqlState.SYNTAX_ERROR, "INSERT has more target columns than expressions");
        }
    }

    /**
     * The rows of a VALUES of constants, or null when some cell needs evaluating. An {@code
     * ARRAY[...]} of constants feeding an array column is a constant too, the list of its
     * elements' values (read as the column's element type later); elsewhere it is planned.
     *
     * @param targets the columns the cells feed, in order (fewer when the statement lists none)
     */
    static List<Object[]> literalRows(SqlCall values, int[] order, TableDef table, int[] targets) {
        List<Object[]> rows = new ArrayList<>(values.operandCount());
        for (SqlNode rowNode : values.getOperandList()) {
            if (!(rowNode instanceof SqlCall row) || row.getKind() != SqlKind.ROW) {
                return null;
            }
            Object[] out = new Object[row.operandCount()];
            for (int i = 0; i < out.length; i++) {
                TypeKind target = i < targets.length
                        ? table.columns().get(targets[i]).type().kind()
                        : null;
                Object v = target == TypeKind.ARRAY
                        ? arrayLiteral(row.operand(i), order)
                        : target == TypeKind.INTERVAL
                                ? intervalLiteral(row.operand(i), order)
                                : literal(row.operand(i), order);
                if (v == NOT_LITERAL) {
                    return null;
                }
                out[i] = v;
            }
            rows.add(out);
        }
        return rows;
    }

    private static final Object NOT_LITERAL = new Object();

    /** {@link #literal}, or an {@code ARRAY[...]} of plain constants as the list of their values. */
    private static Object arrayLiteral(SqlNode node, int[] order) {
        if (node.getKind() != SqlKind.ARRAY_VALUE_CONSTRUCTOR) {
            return literal(node, order);
        }
        List<Object> elements = new ArrayList<>();
        for (SqlNode operand : ((SqlCall) node).getOperandList()) {
            Object v = literal(operand, order);
            if (v == NOT_LITERAL || v == StatementPlan.DEFAULT || v instanceof StatementPlan.ParamRef) {
                return NOT_LITERAL;
            }
            elements.add(v);
        }
        return elements;
    }

    /**
     * {@link #literal}, or an interval constant (Calcite's, or PostgreSQL's {@code
     * pg_interval('text')} that the interval rewrites make of one) as PostgreSQL's text of its
     * value, which the interval column reads back as that value: planned, a VALUES of constants of
     * both of Calcite's interval kinds has no type.
     */
    private static Object intervalLiteral(SqlNode node, int[] order) {
        if (node instanceof SqlIntervalLiteral lit) {
            return PgTextFormat.formatInterval(PgIntervals.value(lit));
        }
        if (node instanceof SqlCall call
                && call.getOperator().getName().equalsIgnoreCase("pg_interval")
                && call.operandCount() == 1
                && call.operand(0) instanceof SqlCharStringLiteral text) {
            return text.getValueAs(String.class);
        }
        return literal(node, order);
    }

    /**
     * A cell's value without planning: numbers as BigDecimal, strings and typed literals as their
     * text (parsed later as the target column's type, like PostgreSQL's untyped literals), NULL and
     * DEFAULT as null, parameters as {@link StatementPlan.ParamRef}.
     */
    private static Object literal(SqlNode node, int[] order) {
        if (node instanceof SqlDynamicParam p) {
            return new StatementPlan.ParamRef(order[p.getIndex()]);
        }
        if (node instanceof SqlNumericLiteral n) {
            return n.getValueAs(BigDecimal.class);
        }
        if (node instanceof SqlLiteral lit) {
            Object v = lit.getValue();
            if (v == null) {
                return null;
            }
            if (v instanceof Boolean) {
                return v;
            }
            if (lit.getTypeName().getFamily() == org.apache.calcite.sql.type.SqlTypeFamily.CHARACTER) {
                return lit.getValueAs(String.class);
            }
            return NOT_LITERAL;
        }
        if (node.getKind() == SqlKind.DEFAULT) {
            return StatementPlan.DEFAULT;
        }
        if (node.getKind() == SqlKind.MINUS_PREFIX
                && node instanceof SqlBasicCall call
                && call.operand(0) instanceof SqlNumericLiteral n) {
            return n.getValueAs(BigDecimal.class).negate();
        }
        return NOT_LITERAL;
    }
}

package io.tributary.sql.calcite;

import io.tributary.common.TributaryException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.calcite.adapter.enumerable.CallImplementor;
import org.apache.calcite.adapter.enumerable.NullPolicy;
import org.apache.calcite.adapter.enumerable.RexImpTable;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.schema.ImplementableFunction;
import org.apache.calcite.schema.ScalarFunction;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL's {@code pg_column_size(any)}: the bytes PostgreSQL would take for its argument's
 * value. A fixed-width type is its width (decided from the validated type when Calcite generates
 * code; nothing but the NULL test runs per row). A variable-width value (text, varchar, char(n),
 * bytea, numeric) is its data plus PostgreSQL's length header: 1 byte for a column's value of up to
 * 126 bytes of data, as PostgreSQL keeps one in a table, and 4 bytes for a computed value or a
 * longer one. A column's value, here, is an argument that is an input column of the operator that
 * computes the call. numeric's data is PostgreSQL's packed form ({@link #numericBytes}).
 *
 * <p>0A000 where PostgreSQL's figure cannot be reproduced: other types (json, jsonb, arrays,
 * intervals are fine: see {@link #fixedWidth}), and a column's value of {@value #COMPRESSED_AT}
 * bytes or more, which PostgreSQL would store compressed. Registered in the root schema by {@link
 * CatalogSchema#registerFunctions}; a bare string literal (PostgreSQL's {@code unknown}, a C string)
 * is sized before validation by {@link PgValueSemantics} ({@link #unknownLiteral}). The static
 * methods are called from generated code on any thread; pure.
 */
public final class PgColumnSize implements ScalarFunction, ImplementableFunction {
    /** The function's name in SQL. */
    static final String NAME = "pg_column_size";

    /** The most data a 1-byte length header covers (its 7 bits count the header too). */
    private static final int SHORT_DATA_MAX = 126;

    /** Data from which a stored value would be compressed by PostgreSQL (its TOAST threshold, about 2 kB a row). */
    static final int COMPRESSED_AT = 2000;

    /** numeric's short header (sign and display scale in 16 bits) holds scales up to this, and weights in [-64, 63]. */
    private static final int SHORT_NUMERIC_SCALE_MAX = 63;

    private static final List<FunctionParameter> PARAMETERS =
            List.of(new RequiredParameter(0, "value", SqlTypeName.ANY));

    @Override
    public List<FunctionParameter> getParameters() {
        return PARAMETERS;
    }

    @Override
    public RelDataType getReturnType(RelDataTypeFactory typeFactory) {
        return typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.INTEGER), true);
    }

    @Override
    public CallImplementor getImplementor() {
        return RexImpTable.createImplementor(
                (translator, call, operands) -> {
                    RelDataType type = call.getOperands().get(0).getType();
                    if (type.getSqlTypeName() == SqlTypeName.NULL || type.getSqlTypeName() == SqlTypeName.ANY) {
                        return Expressions.constant(null, Integer.class); // a bare NULL
                    }
                    int width = fixedWidth(type.getSqlTypeName(), type);
                    if (width > 0) {
                        return Expressions.constant(width);
                    }
                    Expression stored = Expressions.constant(
                            translator.deref(call.getOperands().get(0)) instanceof RexInputRef);
                    String method = switch (type.getSqlTypeName()) {
                        case CHAR, VARCHAR -> "text";
                        case BINARY, VARBINARY -> "bytea";
                        case DECIMAL -> "numeric";
                        default ->
                            throw TributaryException.notSupported("pg_column_size of type " + PgTypeOf.name(type));
                    };
                    if (method.equals("text")) {
                        // char(n) is padded to n characters in PostgreSQL; Calcite may hold it without the blanks
                        int padTo = type.getSqlTypeName() == SqlTypeName.CHAR ? type.getPrecision() : 0;
                        return Expressions.call(
                                PgColumnSize.class, method, operands.get(0), Expressions.constant(padTo), stored);
                    }
                    return Expressions.call(PgColumnSize.class, method, operands.get(0), stored);
                },
                NullPolicy.STRICT,
                false);
    }

    /** PostgreSQL's width of a value of fixed-width type {@code name}, or 0 for a variable-width type. */
    private static int fixedWidth(SqlTypeName name, RelDataType type) {
        return switch (name) {
            case BOOLEAN -> 1;
            case TINYINT, SMALLINT -> 2;
            case INTEGER, REAL, DATE -> 4;
            case BIGINT, DOUBLE, FLOAT, TIME, TIMESTAMP, TIMESTAMP_WITH_LOCAL_TIME_ZONE, TIMESTAMP_TZ -> 8;
            case UUID -> 16;
            default -> PgIntervals.isInterval(type) || SqlTypeName.INTERVAL_TYPES.contains(name) ? 16 : 0;
        };
    }

    /** The size PostgreSQL gives a bare string literal (type unknown, a C string): its UTF-8 bytes and a NUL. */
    static int unknownLiteral(String value) {
        return value.getBytes(StandardCharsets.UTF_8).length + 1;
    }

    /**
     * A text, varchar or char(n) value, blank-padded to {@code padTo} characters (n for char(n), else
     * 0); {@code stored}: a column's.
     */
    public static int text(String value, int padTo, boolean stored) {
        int blanks = Math.max(0, padTo - value.codePointCount(0, value.length()));
        return varlena(value.getBytes(StandardCharsets.UTF_8).length + blanks, stored);
    }

    /** A bytea value. */
    public static int bytea(ByteString value, boolean stored) {
        return varlena(value.length(), stored);
    }

    /** A numeric value. */
    public static int numeric(BigDecimal value, boolean stored) {
        return varlena(numericBytes(value), stored);
    }

    private static int varlena(int data, boolean stored) {
        if (!stored) {
            return data + 4;
        }
        if (data >= COMPRESSED_AT) {
            throw TributaryException.notSupported("pg_column_size of a stored value of " + COMPRESSED_AT
                    + " bytes or more (PostgreSQL compresses it)");
        }
        return data <= SHORT_DATA_MAX ? data + 1 : data + 4;
    }

    /**
     * The bytes of PostgreSQL's numeric form of {@code value} without the length header: a header
     * (2 bytes, or 4 when the scale exceeds 63 or the weight leaves [-64, 63]) and 2 bytes per
     * base-10000 digit, leading and trailing zero digits dropped.
     */
    static int numericBytes(BigDecimal value) {
        BigDecimal abs = value.abs();
        int scale = Math.max(abs.scale(), 0);
        String digits = abs.setScale(scale).unscaledValue().toString();
        int integerDigits = digits.length() - scale; // may be <= 0 for a value below 1
        // pad so that the decimal point falls on a base-10000 group boundary on both sides
        int leftPad = Math.floorMod(-integerDigits, 4);
        int rightPad = Math.floorMod(-scale, 4);
        int length = leftPad + digits.length() + rightPad;
        int firstGroup = -1;
        int lastGroup = -1;
        for (int g = 0; g < length / 4; g++) {
            if (!zeroGroup(digits, g * 4 - leftPad)) {
                if (firstGroup < 0) {
                    firstGroup = g;
                }
                lastGroup = g;
            }
        }
        boolean shortHeader = scale <= SHORT_NUMERIC_SCALE_MAX;
        if (firstGroup >= 0) {
            int integerGroups = (leftPad + integerDigits) / 4; // groups before the decimal point
            int weight = integerGroups - 1 - firstGroup;
            shortHeader &= weight >= -64 && weight <= 63;
        }
        int groups = firstGroup < 0 ? 0 : lastGroup - firstGroup + 1;
        return (shortHeader ? 2 : 4) + 2 * groups;
    }

    /** Whether the four digits of {@code digits} from {@code from} (positions outside are zeros) are all zero. */
    private static boolean zeroGroup(String digits, int from) {
        for (int i = Math.max(from, 0); i < Math.min(from + 4, digits.length()); i++) {
            if (digits.charAt(i) != '0') {
                return false;
            }
        }
        return true;
    }
}

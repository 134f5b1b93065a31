package io.tributary.sql.calcite;

import io.tributary.common.types.PgTextFormat;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * The bytea arguments of {@link PgByteaFunctions}' functions, typed as PostgreSQL types them. A
 * string constant there ({@code encode('abc', 'hex')}, {@code sha256('\x6162')}) is read as bytea
 * input, the constant being of type unknown ({@link #rewrite}, called by {@link PgValueSemantics});
 * a text expression there has no such function (42883, checked by {@link PgValidator} through {@link
 * #textAtByteaPosition}). Calcite would coerce either with its own text-to-binary cast, which takes
 * the characters' UTF-16 bytes. Called on the thread rewriting or validating a statement; the table
 * of bytea positions is built once from the functions' methods.
 */
final class ByteaArguments {
    /** Per function name and arity, whether each argument is bytea in every overload. */
    private static final Map<String, boolean[]> BYTEA_POSITIONS = byteaPositions();

    private ByteaArguments() {}

    /** {@code call} with its bytea-position string constants made binary constants, or null if it has none. */
    static SqlCall rewrite(SqlCall call) {
        boolean[] bytea = BYTEA_POSITIONS.get(key(call.getOperator().getName(), call.operandCount()));
        if (bytea == null) {
            return null;
        }
        List<SqlNode> operands = call.getOperandList();
        SqlNode[] rewritten = operands.toArray(SqlNode[]::new);
        boolean changed = false;
        for (int i = 0; i < rewritten.length; i++) {
            if (bytea[i]
                    && rewritten[i] instanceof SqlLiteral lit
                    && lit.getTypeName().getFamily() == SqlTypeFamily.CHARACTER) {
                byte[] bytes = PgTextFormat.parseBytea(lit.getValueAs(String.class));
                rewritten[i] = SqlLiteral.createBinaryString(bytes, lit.getParserPosition());
                changed = true;
            }
        }
        return changed
                ? call.getOperator().createCall(call.getFunctionQuantifier(), call.getParserPosition(), rewritten)
                : null;
    }

    /**
     * Whether {@code call}, to a function of this table, has a text argument where it takes bytea;
     * {@code typeOf} derives an argument's type.
     */
    static boolean textAtByteaPosition(SqlCall call, Function<SqlNode, RelDataType> typeOf) {
        boolean[] bytea = BYTEA_POSITIONS.get(key(call.getOperator().getName(), call.operandCount()));
        if (bytea == null) {
            return false;
        }
        for (int i = 0; i < bytea.length; i++) {
            if (bytea[i] && SqlTypeUtil.inCharFamily(typeOf.apply(call.operand(i)))) {
                return true;
            }
        }
        return false;
    }

    private static Map<String, boolean[]> byteaPositions() {
        Map<String, boolean[]> positions = new HashMap<>();
        for (Method m : PgByteaFunctions.class.getMethods()) {
            if (!Modifier.isStatic(m.getModifiers()) || m.getDeclaringClass() != PgByteaFunctions.class) {
                continue;
            }
            Class<?>[] parameters = m.getParameterTypes();
            boolean[] bytea = new boolean[parameters.length];
            for (int i = 0; i < parameters.length; i++) {
                bytea[i] = parameters[i] == ByteString.class;
            }
            positions.merge(key(m.getName(), parameters.length), bytea, ByteaArguments::inEvery);
        }
        return Map.copyOf(positions);
    }

    /** Bytea where both overloads take bytea: a position another overload takes as text keeps the text. */
    private static boolean[] inEvery(boolean[] a, boolean[] b) {
        boolean[] both = new boolean[a.length];
        for (int i = 0; i < a.length; i++) {
            both[i] = a[i] && b[i];
        }
        return both;
    }

    private static String key(String name, int arity) {
        return name.toLowerCase(Locale.ROOT) + "/" + arity;
    }
}

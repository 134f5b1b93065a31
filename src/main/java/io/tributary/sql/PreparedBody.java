package io.tributary.sql;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.List;

/**
 * Binds {@code EXECUTE}'s arguments to a {@code PREPARE}d statement's parameters: each
 * {@code $n} of the body becomes the n-th argument's expression, cast to the declared type when
 * the PREPARE declared one, so the statement then runs as if written with those values. Called on
 * the session's thread; stateless.
 */
public final class PreparedBody {
    private PreparedBody() {}

    /** How many arguments an EXECUTE of {@code prepared} takes: the declared types, or its highest {@code $n}. */
    public static int parameterCount(UtilityStatement.Prepare prepared) {
        int max = 0;
        for (Token t : Lexer.tokenize(prepared.body())) {
            if (t.kind() == Token.Kind.PARAM) {
                max = Math.max(max, Integer.parseInt(t.text()));
            }
        }
        return Math.max(max, prepared.types().size());
    }

    /**
     * The body of {@code prepared} with {@code arguments} in place of its parameters.
     *
     * @throws TributaryException 42601 when the number of arguments is not the number of parameters
     */
    public static String bind(UtilityStatement.Prepare prepared, List<String> arguments) {
        int expected = parameterCount(prepared);
        if (arguments.size() != expected) {
            throw new TributaryException(
                    SqlState.SYNTAX_ERROR,
                    "wrong number of parameters for prepared statement \"" + prepared.name() + "\"",
                    0,
                    "Expected " + expected + " parameters but got " + arguments.size() + ".",
                    null,
                    null);
        }
        return substituted(prepared, n -> arguments.get(n - 1));
    }

    /**
     * The body of {@code prepared} as PREPARE checks it: each parameter the PREPARE declared a type
     * for cast to that type ({@code CAST(($1) AS text)}), so its type is known where nothing else
     * tells it ({@code $1 || '-'}), as PostgreSQL plans it; others left as they are.
     */
    public static String typedBody(UtilityStatement.Prepare prepared) {
        return substituted(prepared, n -> "$" + n);
    }

    /** The body of {@code prepared} with {@code value.apply(n)}, cast to a declared type, for each {@code $n}. */
    private static String substituted(UtilityStatement.Prepare prepared, java.util.function.IntFunction<String> value) {
        String body = prepared.body();
        StringBuilder out =
                new StringBuilder(body.length() + 16 * prepared.types().size());
        int from = 0;
        for (Token t : Lexer.tokenize(body)) {
            if (t.kind() != Token.Kind.PARAM) {
                continue;
            }
            int n = Integer.parseInt(t.text());
            if (n < 1) {
                throw new TributaryException(SqlState.UNDEFINED_PARAMETER, "there is no parameter $" + n);
            }
            out.append(body, from, t.position());
            String argument = value.apply(n);
            if (n <= prepared.types().size()) {
                out.append("CAST((")
                        .append(argument)
                        .append(") AS ")
                        .append(prepared.types().get(n - 1))
                        .append(')');
            } else {
                out.append('(').append(argument).append(')');
            }
            from = t.position() + 1 + t.text().length();
        }
        return out.append(body, from, body.length()).toString();
    }
}

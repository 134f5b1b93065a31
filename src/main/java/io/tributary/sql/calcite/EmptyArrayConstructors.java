package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.List;

/**
 * Refuses an empty {@code ARRAY[]} that no cast gives a type, as PostgreSQL's parser does (42P18
 * with its hint): only {@code ARRAY[]::int[]} and {@code CAST(ARRAY[] AS int[])} name the element
 * type, whatever the context would accept ({@code INSERT ... VALUES (ARRAY[])} into an array column
 * too). Those casts {@link PgSyntaxText} rewrites into an empty array of the element type. Called
 * first by {@link PgSyntaxText#rewrite}, on the client's text; stateless.
 */
final class EmptyArrayConstructors {
    private EmptyArrayConstructors() {}

    /**
     * Checks {@code sql}.
     *
     * @throws TributaryException 42P18 {@code cannot determine type of empty array} at the first
     *     {@code ARRAY[]} not cast
     */
    static void check(String sql) {
        if (sql.indexOf(']') < 0) {
            return;
        }
        List<PgToken> tokens = PgTokenizer.tokens(sql);
        for (int i = 0; i + 2 < tokens.size(); i++) {
            if (tokens.get(i).isWord("array")
                    && tokens.get(i + 1).kind() == PgToken.Kind.OPEN_BRACKET
                    && tokens.get(i + 2).kind() == PgToken.Kind.CLOSE_BRACKET
                    && !cast(tokens, i)) {
                throw new TributaryException(
                        SqlState.INDETERMINATE_DATATYPE,
                        "cannot determine type of empty array",
                        tokens.get(i).start() + 1,
                        null,
                        "Explicitly cast to the desired type, for example ARRAY[]::integer[].",
                        null);
            }
        }
    }

    /** Whether the {@code ARRAY[]} whose {@code ARRAY} is token {@code at} is cast: {@code ::} after it, or {@code CAST(} before it. */
    private static boolean cast(List<PgToken> tokens, int at) {
        if (at + 3 < tokens.size() && tokens.get(at + 3).kind() == PgToken.Kind.CAST) {
            return true;
        }
        return at >= 2
                && tokens.get(at - 2).isWord("cast")
                && tokens.get(at - 1).kind() == PgToken.Kind.OPEN
                && at + 3 < tokens.size()
                && tokens.get(at + 3).isWord("as");
    }
}

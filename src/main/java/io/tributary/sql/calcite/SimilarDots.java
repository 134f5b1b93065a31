package io.tributary.sql.calcite;

/**
 * A SIMILAR TO pattern whose dots match only a dot: in PostgreSQL's SIMILAR TO, {@code .} is an
 * ordinary character, while Calcite's translation to a Java regular expression leaves it matching
 * any character. Each dot outside a bracket expression becomes the bracket expression {@code [.]},
 * an escaped one too (its escape dropped: Calcite refuses an escaped dot, PostgreSQL reads it as
 * the dot). Dots inside a bracket expression already match only a dot. Stateless.
 */
public final class SimilarDots {
    private SimilarDots() {}

    /**
     * A pattern that is no constant ({@code s SIMILAR TO p}, {@code p} a column), as each row reads
     * it: {@link #literal} with the default escape {@code \\}. Called by generated code.
     *
     * @return null for a null pattern
     */
    public static String literalDots(String pattern) {
        return pattern == null ? null : literal(pattern, '\\');
    }

    /**
     * {@link #literalDots} with escape {@code escape} (a constant of at most one character, as
     * {@link PgScalarCalls} checks; empty for none).
     */
    public static String literalDotsEscaped(String pattern, String escape) {
        if (pattern == null || escape == null) {
            return pattern;
        }
        return literal(pattern, escape.isEmpty() ? -1 : escape.charAt(0));
    }

    /**
     * {@code pattern} with each dot outside brackets as {@code [.]}, or {@code pattern} itself when
     * it has none.
     *
     * @param escape the escape character, or -1 for none
     */
    static String literal(String pattern, int escape) {
        if (pattern.indexOf('.') < 0) {
            return pattern;
        }
        StringBuilder out = new StringBuilder(pattern.length() + 4);
        boolean bracket = false;
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == escape && i + 1 < pattern.length()) {
                char escaped = pattern.charAt(++i);
                if (escaped == '.' && !bracket) {
                    out.append("[.]");
                } else {
                    out.append(c).append(escaped);
                }
            } else if (c == '.' && !bracket) {
                out.append("[.]");
            } else {
                bracket = c == '[' || bracket && c != ']';
                out.append(c);
            }
        }
        return out.toString();
    }
}

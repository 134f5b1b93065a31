package io.tributary.sql;

/**
 * A token of a utility statement. {@code text} is folded to lower case for unquoted identifiers
 * and keywords, kept as written for quoted identifiers and strings.
 *
 * @param position 0-based offset in the statement
 */
public record Token(Kind kind, String text, int position) {
    public enum Kind {
        WORD,
        QUOTED_IDENT,
        STRING,
        NUMBER,
        SYMBOL,
        PARAM,
        END
    }

    public boolean isWord(String word) {
        return kind == Kind.WORD && text.equals(word);
    }

    public boolean isSymbol(String symbol) {
        return kind == Kind.SYMBOL && text.equals(symbol);
    }

    public boolean isIdentifier() {
        return kind == Kind.WORD || kind == Kind.QUOTED_IDENT;
    }
}

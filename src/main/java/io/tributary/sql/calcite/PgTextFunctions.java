package io.tributary.sql.calcite;

/**
 * PostgreSQL's text functions that Calcite lacks, registered as schema functions by {@link
 * CatalogSchema} under their method names (public static, called by reflection from generated code;
 * NULL in gives NULL out). Pure functions, safe on any thread.
 */
public final class PgTextFunctions {
    private PgTextFunctions() {}

    /** {@code starts_with(text, prefix)}: whether the text begins with the prefix. */
    public static Boolean starts_with(String s, String prefix) {
        return s == null || prefix == null ? null : s.startsWith(prefix);
    }

    /**
     * {@code ltrim(text, characters)}: the text without the longest prefix made only of {@code
     * characters} (the one-argument form, spaces, is Calcite's).
     */
    public static String ltrim(String s, String characters) {
        if (s == null || characters == null) {
            return null;
        }
        int start = 0;
        while (start < s.length() && characters.indexOf(s.codePointAt(start)) >= 0) {
            start += Character.charCount(s.codePointAt(start));
        }
        return s.substring(start);
    }

    /** {@code rtrim(text, characters)}: the text without the longest suffix made only of {@code characters}. */
    public static String rtrim(String s, String characters) {
        if (s == null || characters == null) {
            return null;
        }
        int end = s.length();
        while (end > 0 && characters.indexOf(s.codePointBefore(end)) >= 0) {
            end -= Character.charCount(s.codePointBefore(end));
        }
        return s.substring(0, end);
    }

    /** {@code quote_nullable(text)}: {@code quote_literal} of the text, or the word NULL for NULL. */
    public static String quote_nullable(String s) {
        return s == null ? "NULL" : PgCatalogFunctions.quote_literal(s);
    }

    /** {@code btrim(text)}: the text without leading and trailing spaces. */
    public static String btrim(String s) {
        return btrim(s, " ");
    }

    /**
     * {@code btrim(text, characters)}: the text without the longest prefix and suffix made only of
     * {@code characters} (code points, as PostgreSQL compares characters in UTF8).
     */
    public static String btrim(String s, String characters) {
        return rtrim(ltrim(s, characters), characters);
    }
}

package io.tributary.sql.calcite;

import java.util.List;
import java.util.Locale;

/**
 * PostgreSQL's name for a result column that Calcite renamed apart. PostgreSQL lets a result have
 * two columns of one name ({@code SELECT * FROM a JOIN b ON a.id = b.id} gives {@code id | v | id |
 * v}), where Calcite's validator names the later ones {@code id0}, {@code v0}: the name it had and
 * a number. Used by the query and view planners when they name result columns; stateless.
 */
final class StarColumnNames {
    private StarColumnNames() {}

    /**
     * The name Calcite's {@code label} had before Calcite numbered it, or null when it is the
     * column's own name. Calcite numbers a name taken by an earlier column by appending the first
     * count (0, 1, ...) that makes it free, so {@code id} becomes {@code id0} or {@code id1}, and
     * {@code id0} becomes {@code id00}. A label is taken for numbered when it is an earlier column's
     * name followed by digits (the table column it reads, {@code origin}, when there is one; the
     * longest such name otherwise), and is written nowhere in the text Calcite planned ({@code
     * plannedText}, before its validator expanded any {@code *}): an alias or view column of that
     * name keeps it, as does a table column ({@code origin} equal to {@code label}).
     *
     * @param origin the name of the table column the result column reads unchanged, or null
     * @param earlier the names of the result's earlier columns, as the client will see them
     */
    static String original(String label, String origin, List<String> earlier, String plannedText) {
        if (label.equals(origin)) {
            return null;
        }
        for (int end = label.length() - 1; end > 0 && Character.isDigit(label.charAt(end)); end--) {
            String base = label.substring(0, end);
            if ((origin == null || origin.equals(base)) && usedBy(base, earlier)) {
                return written(label, plannedText) ? null : base;
            }
        }
        return null;
    }

    private static boolean usedBy(String name, List<String> earlier) {
        for (String e : earlier) {
            if (e.equalsIgnoreCase(name)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code name} occurs in {@code text} as a whole word, in any case or quoted. */
    private static boolean written(String name, String text) {
        String lower = text.toLowerCase(Locale.ROOT);
        String wanted = name.toLowerCase(Locale.ROOT);
        for (int at = lower.indexOf(wanted); at >= 0; at = lower.indexOf(wanted, at + 1)) {
            boolean startsWord = at == 0 || !isWordChar(lower.charAt(at - 1));
            int after = at + wanted.length();
            boolean endsWord = after == lower.length() || !isWordChar(lower.charAt(after));
            if (startsWord && endsWord) {
                return true;
            }
        }
        return false;
    }

    private static boolean isWordChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$';
    }
}

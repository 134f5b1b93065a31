package io.tributary.meta.sink;

import io.tributary.common.types.DataType;
import io.tributary.common.types.PgTextFormat;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Builds the body of a {@code COPY ... FROM STDIN} in PostgreSQL's text format: one line per row,
 * tab-separated, {@code \N} for NULL, backslash escapes for the characters the format reserves,
 * values in PostgreSQL's text output format, and the change's operation as the last field. One
 * delivery thread; reused across batches.
 */
final class CopyText {
    private final StringBuilder text = new StringBuilder(1 << 16);
    private final List<DataType> types;
    private final int[] columns;
    private final boolean withOp;
    private int rows;

    /**
     * @param types the relation's column types
     * @param columns the relation's column indexes to write, in the staging table's order
     * @param withOp whether each line ends with the change's operation (for the staging table)
     *     or not (for a COPY straight into the target)
     */
    CopyText(List<DataType> types, int[] columns, boolean withOp) {
        this.types = types;
        this.columns = columns;
        this.withOp = withOp;
    }

    void reset() {
        text.setLength(0);
        rows = 0;
    }

    int rows() {
        return rows;
    }

    /** Appends {@code row} (full width, canonical values) with operation {@code op}. */
    void add(Object[] row, char op) {
        for (int c : columns) {
            Object v = row[c];
            if (v == null) {
                text.append("\\N");
            } else {
                escape(PgTextFormat.format(types.get(c), v));
            }
            text.append('\t');
        }
        if (withOp) {
            text.append(op).append('\n');
        } else {
            text.setCharAt(text.length() - 1, '\n');
        }
        rows++;
    }

    /** Appends a deletion of the row with {@code row}'s key: only the key columns are read. */
    void addDelete(Object[] keyRow, int[] keyColumns) {
        for (int c : columns) {
            boolean isKey = false;
            for (int k : keyColumns) {
                isKey |= k == c;
            }
            if (isKey && keyRow[c] != null) {
                escape(PgTextFormat.format(types.get(c), keyRow[c]));
            } else {
                text.append("\\N");
            }
            text.append('\t');
        }
        text.append('D').append('\n');
        rows++;
    }

    byte[] bytes() {
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    private void escape(String s) {
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '\\' -> text.append("\\\\");
                case '\t' -> text.append("\\t");
                case '\n' -> text.append("\\n");
                case '\r' -> text.append("\\r");
                default -> text.append(ch);
            }
        }
    }
}

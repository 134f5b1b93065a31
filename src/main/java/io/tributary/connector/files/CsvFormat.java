package io.tributary.connector.files;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.codec.CsvTokenizer;
import java.util.ArrayList;
import java.util.List;

/**
 * CSV as RFC 4180 describes it, with a chosen delimiter, read by {@link CsvTokenizer#rfc4180}:
 * fields in double quotes may hold the delimiter, newlines and doubled quotes; an empty unquoted
 * field is NULL and {@code ""} is the empty string; a quote inside an unquoted field is kept as it
 * is. With a header, fields are matched to columns by name and columns the header lacks are
 * NULL; without one, the fields are the columns in order and a record must have exactly one per
 * column.
 */
final class CsvFormat implements RecordFormat {
    private final RowBuilder rows;
    private final boolean header;
    private final CsvTokenizer tokenizer;

    CsvFormat(RowBuilder rows, boolean header, char delimiter) {
        this.rows = rows;
        this.header = header;
        this.tokenizer = CsvTokenizer.rfc4180(delimiter);
    }

    @Override
    public int recordEnd(byte[] buf, int from, int to) {
        return tokenizer.recordEnd(buf, from, to);
    }

    @Override
    public boolean hasHeader() {
        return header;
    }

    @Override
    public int[] header(String record) throws MalformedRecordException {
        List<String> names = fields(record);
        int[] layout = new int[names.size()];
        boolean[] seen = new boolean[rows.width()];
        boolean any = false;
        for (int i = 0; i < layout.length; i++) {
            String name = names.get(i) == null ? "" : names.get(i).trim();
            int c = rows.columnIndex(name);
            if (c >= 0 && seen[c]) {
                throw new MalformedRecordException(
                        SqlState.BAD_COPY_FILE_FORMAT, "column " + rows.columnName(c) + " appears twice in the header");
            }
            if (c >= 0) {
                seen[c] = true;
                any = true;
            }
            layout[i] = c;
        }
        if (!any) {
            throw new MalformedRecordException(
                    SqlState.BAD_COPY_FILE_FORMAT,
                    "the header names none of the table's columns (set without_header = 'true' for files without one)");
        }
        return layout;
    }

    @Override
    public Object[] row(String record, int[] layout) throws MalformedRecordException {
        List<String> fields = fields(record);
        int expected = layout == null ? rows.width() : layout.length;
        if (fields.size() != expected) {
            throw new MalformedRecordException(
                    SqlState.BAD_COPY_FILE_FORMAT, "expected " + expected + " fields, found " + fields.size());
        }
        Object[] row = new Object[rows.width()];
        for (int i = 0; i < fields.size(); i++) {
            int c = layout == null ? i : layout[i];
            if (c >= 0) {
                row[c] = rows.convert(c, fields.get(i));
            }
        }
        return rows.checked(row);
    }

    /** The record's fields: null for an empty unquoted field. */
    private List<String> fields(String record) throws MalformedRecordException {
        List<String> out = new ArrayList<>(rows.width());
        try {
            tokenizer.split(record, out);
        } catch (TributaryException e) {
            throw new MalformedRecordException(e.sqlState(), e.getMessage());
        }
        return out;
    }
}

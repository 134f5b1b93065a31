package io.tributary.connector.files;

import io.tributary.common.SqlState;

import java.util.ArrayList;
import java.util.List;

/**
 * CSV as RFC 4180 describes it, with a chosen delimiter: fields in double quotes may hold the
 * delimiter, newlines and doubled quotes; an empty unquoted field is NULL and {@code ""} is the
 * empty string; a quote inside an unquoted field is kept as it is. With a header, fields are
 * matched to columns by name and columns the header lacks are NULL; without one, the fields are
 * the columns in order and a record must have exactly one per column.
 */
final class CsvFormat implements RecordFormat {
    private static final byte QUOTE = '"';

    private final RowBuilder rows;
    private final boolean header;
    private final char delimiter;

    CsvFormat(RowBuilder rows, boolean header, char delimiter) {
        this.rows = rows;
        this.header = header;
        this.delimiter = delimiter;
    }

    @Override
    public int recordEnd(byte[] buf, int from, int to) {
        // the delimiter, quote and newline are ASCII, so scanning UTF-8 bytes finds them exactly;
        // a quote opens a quoted field only at the start of a field, as fields() reads it
        boolean quoted = false;
        boolean fieldStart = true;
        for (int i = from; i < to; i++) {
            byte b = buf[i];
            if (quoted) {
                if (b == QUOTE) {
                    if (i + 1 == to) {
                        return -1; // an escaped quote or the closing one: the next byte decides
                    }
                    if (buf[i + 1] == QUOTE) {
                        i++;
                    } else {
                        quoted = false;
                    }
                }
            } else if (b == '\n') {
                return i + 1;
            } else {
                quoted = b == QUOTE && fieldStart;
                fieldStart = b == delimiter;
            }
        }
        return -1;
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
                throw new MalformedRecordException(SqlState.BAD_COPY_FILE_FORMAT,
                        "column " + rows.columnName(c) + " appears twice in the header");
            }
            if (c >= 0) {
                seen[c] = true;
                any = true;
            }
            layout[i] = c;
        }
        if (!any) {
            throw new MalformedRecordException(SqlState.BAD_COPY_FILE_FORMAT,
                    "the header names none of the table's columns (set without_header = 'true' for files without one)");
        }
        return layout;
    }

    @Override
    public Object[] row(String record, int[] layout) throws MalformedRecordException {
        List<String> fields = fields(record);
        int expected = layout == null ? rows.width() : layout.length;
        if (fields.size() != expected) {
            throw new MalformedRecordException(SqlState.BAD_COPY_FILE_FORMAT,
                    "expected " + expected + " fields, found " + fields.size());
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
    List<String> fields(String s) throws MalformedRecordException {
        List<String> out = new ArrayList<>();
        int n = s.length();
        int i = 0;
        while (true) {
            if (i < n && s.charAt(i) == QUOTE) {
                StringBuilder field = new StringBuilder();
                i++;
                while (true) {
                    if (i >= n) {
                        throw new MalformedRecordException(SqlState.BAD_COPY_FILE_FORMAT, "unterminated quoted field");
                    }
                    char c = s.charAt(i++);
                    if (c != QUOTE) {
                        field.append(c);
                    } else if (i < n && s.charAt(i) == QUOTE) {
                        field.append(c);
                        i++;
                    } else {
                        break;
                    }
                }
                out.add(field.toString());
                if (i == n) {
                    return out;
                }
                if (s.charAt(i) != delimiter) {
                    throw new MalformedRecordException(SqlState.BAD_COPY_FILE_FORMAT,
                            "unexpected character after a closing quote at position " + (i + 1));
                }
                i++;
            } else {
                int end = s.indexOf(delimiter, i);
                if (end < 0) {
                    end = n;
                }
                out.add(end == i ? null : s.substring(i, end));
                if (end == n) {
                    return out;
                }
                i = end + 1;
            }
        }
    }
}

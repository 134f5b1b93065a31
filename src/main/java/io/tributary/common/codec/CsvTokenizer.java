package io.tributary.common.codec;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.List;

/**
 * Splits CSV input into records and records into fields, in one of two dialects:
 *
 * <ul>
 *   <li>{@link #postgres PostgreSQL's} (COPY ... CSV): the quote and escape characters and the
 *       NULL string are chosen; a quote anywhere in a field starts a quoted section; inside one,
 *       the escape followed by a quote is a quote; an unquoted field equal to the NULL string is
 *       NULL, a quoted one never is; a quoted section left open at the end of input ends there.
 *   <li>{@link #rfc4180 RFC 4180's} (the files connector): fields in double quotes may hold the
 *       delimiter, newlines and doubled quotes; a quote opens a quoted field only at its start and
 *       elsewhere is kept as it is; an empty unquoted field is NULL and {@code ""} the empty
 *       string; an unterminated quoted field, or anything but a delimiter after the closing quote,
 *       is an error.
 * </ul>
 *
 * <p>In both, a newline inside a quoted section belongs to the field. Records are found in UTF-8
 * bytes: the delimiter, quote, escape and newline are compared byte for byte, which is exact for
 * ASCII characters (the only ones that can match). Immutable and thread-safe.
 */
public final class CsvTokenizer {
    private final char delimiter;
    private final char quote;
    private final char escape;
    private final String nullString;
    private final boolean rfc4180;

    private CsvTokenizer(char delimiter, char quote, char escape, String nullString, boolean rfc4180) {
        this.delimiter = delimiter;
        this.quote = quote;
        this.escape = escape;
        this.nullString = nullString;
        this.rfc4180 = rfc4180;
    }

    /** PostgreSQL's CSV as COPY reads it, with COPY's DELIMITER, QUOTE, ESCAPE and NULL options. */
    public static CsvTokenizer postgres(char delimiter, char quote, char escape, String nullString) {
        return new CsvTokenizer(delimiter, quote, escape, nullString, false);
    }

    /** RFC 4180 CSV with the given delimiter. */
    public static CsvTokenizer rfc4180(char delimiter) {
        return new CsvTokenizer(delimiter, '"', '"', "", true);
    }

    /**
     * The end (exclusive, just after its terminating newline) of the record that starts at
     * {@code from}, or -1 when {@code buf[from, to)} holds no complete record yet. A record ends at
     * the first newline outside a quoted section.
     */
    public int recordEnd(byte[] buf, int from, int to) {
        boolean quoted = false;
        boolean fieldStart = true;
        for (int i = from; i < to; i++) {
            byte b = buf[i];
            if (quoted) {
                if (b == escape && escape != quote && i + 1 < to && buf[i + 1] == quote) {
                    i++;
                } else if (b == quote) {
                    if (i + 1 == to) {
                        return -1; // an escaped quote or the closing one: the next byte decides
                    }
                    if (escape == quote && buf[i + 1] == quote) {
                        i++;
                    } else {
                        quoted = false;
                    }
                }
            } else if (b == '\n') {
                return i + 1;
            } else {
                quoted = b == quote && (fieldStart || !rfc4180);
                fieldStart = b == delimiter;
            }
        }
        return -1;
    }

    /**
     * Appends the fields of {@code record} (its text without the line terminator) to {@code out},
     * null for a NULL field. An empty record is one field.
     *
     * @throws TributaryException 22P04 for a malformed RFC 4180 record (never in PostgreSQL's
     *     dialect)
     */
    public void split(String record, List<String> out) {
        int i = 0;
        do {
            i = rfc4180 ? rfc4180Field(record, i, out) : postgresField(record, i, out);
        } while (i >= 0);
    }

    /** Adds the field at {@code i}; returns where the next one starts, -1 after the last. */
    private int postgresField(String s, int i, List<String> out) {
        int n = s.length();
        int start = i;
        while (i < n && s.charAt(i) != delimiter && s.charAt(i) != quote) {
            i++;
        }
        if (i == n || s.charAt(i) == delimiter) {
            String field = s.substring(start, i);
            out.add(field.equals(nullString) ? null : field);
            return i == n ? -1 : i + 1;
        }
        // a quoted section follows, so the field is never NULL
        StringBuilder field = new StringBuilder(s.length() - start).append(s, start, i);
        boolean inQuotes = false;
        for (; i < n; i++) {
            char c = s.charAt(i);
            if (inQuotes) {
                if (c == escape && i + 1 < n && s.charAt(i + 1) == quote) {
                    field.append(quote);
                    i++;
                } else if (c == quote) {
                    inQuotes = false;
                } else {
                    field.append(c);
                }
            } else if (c == quote) {
                inQuotes = true;
            } else if (c == delimiter) {
                out.add(field.toString());
                return i + 1;
            } else {
                field.append(c);
            }
        }
        out.add(field.toString());
        return -1;
    }

    /** Adds the field at {@code i}; returns where the next one starts, -1 after the last. */
    private int rfc4180Field(String s, int i, List<String> out) {
        int n = s.length();
        if (i >= n || s.charAt(i) != quote) {
            int end = s.indexOf(delimiter, i);
            if (end < 0) {
                end = n;
            }
            String field = s.substring(i, end);
            out.add(field.equals(nullString) ? null : field);
            return end == n ? -1 : end + 1;
        }
        StringBuilder field = new StringBuilder();
        i++;
        while (true) {
            if (i >= n) {
                throw new TributaryException(SqlState.BAD_COPY_FILE_FORMAT, "unterminated quoted field");
            }
            char c = s.charAt(i++);
            if (c != quote) {
                field.append(c);
            } else if (i < n && s.charAt(i) == quote) {
                field.append(c);
                i++;
            } else {
                break;
            }
        }
        out.add(field.toString());
        if (i == n) {
            return -1;
        }
        if (s.charAt(i) != delimiter) {
            throw new TributaryException(
                    SqlState.BAD_COPY_FILE_FORMAT, "unexpected character after a closing quote at position " + (i + 1));
        }
        return i + 1;
    }
}

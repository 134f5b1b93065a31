package io.tributary.server.session;

import io.tributary.common.types.DataType;
import io.tributary.common.types.PgTextFormat;
import io.tributary.common.types.PgTimeZone;
import io.tributary.common.types.TypeKind;
import io.tributary.sql.UtilityStatement;
import java.util.List;

/**
 * Encodes rows as the lines of {@code COPY ... TO STDOUT}, byte for byte as PostgreSQL writes
 * them: in the text format each value in its text form with backslash escapes for backslash,
 * newline, carriage return, tab, the other control characters PostgreSQL escapes and the
 * delimiter, NULL as the null string; in CSV each value quoted when it holds the delimiter, the
 * quote, a line break, or equals the null string (or is {@code \.} alone on its line), quotes and escapes escaped.
 * Each line ends with a newline. One per COPY; session or protocol thread, one at a time.
 */
public final class CopyOutEncoder {
    private final List<ColumnDesc> columns;
    private final UtilityStatement.CopyFormat format;
    /** The session's zone when the COPY began, which timestamptz values print in. */
    private final PgTimeZone zone;

    private final StringBuilder line = new StringBuilder(128);

    CopyOutEncoder(List<ColumnDesc> columns, UtilityStatement.CopyFormat format, PgTimeZone zone) {
        this.columns = columns;
        this.format = format;
        this.zone = zone;
    }

    /** The header line (the column names), or null when the COPY asked for none. */
    public String header() {
        if (!format.header()) {
            return null;
        }
        line.setLength(0);
        for (int i = 0; i < columns.size(); i++) {
            if (i > 0) {
                line.append(format.delimiter());
            }
            appendValue(columns.get(i).name());
        }
        return line.append('\n').toString();
    }

    /** The line for {@code row}, its values in column order. */
    public String line(Object[] row) {
        line.setLength(0);
        for (int i = 0; i < columns.size(); i++) {
            if (i > 0) {
                line.append(format.delimiter());
            }
            Object value = row[i];
            if (value == null) {
                line.append(format.nullString());
            } else {
                DataType type = columns.get(i).type();
                appendValue(
                        type.kind() == TypeKind.TIMESTAMPTZ
                                ? zone.format((Long) value)
                                : PgTextFormat.format(type, value));
            }
        }
        return line.append('\n').toString();
    }

    private void appendValue(String text) {
        if (format.csv()) {
            appendCsv(text);
        } else {
            appendText(text);
        }
    }

    private void appendText(String text) {
        char delimiter = format.delimiter();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\\' -> line.append("\\\\");
                case '\n' -> line.append("\\n");
                case '\r' -> line.append("\\r");
                case '\t' -> line.append("\\t");
                case '\b' -> line.append("\\b");
                case '\f' -> line.append("\\f");
                case 0x0B -> line.append("\\v");
                default -> {
                    if (c == delimiter) {
                        line.append('\\');
                    }
                    line.append(c);
                }
            }
        }
    }

    private void appendCsv(String text) {
        char quote = format.quote();
        char escape = format.escape();
        char delimiter = format.delimiter();
        // a lone \. would read back as the end of data, so a one-column line quotes it
        boolean quoted = text.equals(format.nullString()) || columns.size() == 1 && text.equals("\\.");
        for (int i = 0; !quoted && i < text.length(); i++) {
            char c = text.charAt(i);
            quoted = c == delimiter || c == quote || c == '\n' || c == '\r';
        }
        if (!quoted) {
            line.append(text);
            return;
        }
        line.append(quote);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == quote || c == escape) {
                line.append(escape);
            }
            line.append(c);
        }
        line.append(quote);
    }
}

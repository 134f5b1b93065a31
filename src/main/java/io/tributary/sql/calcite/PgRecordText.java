package io.tributary.sql.calcite;

import io.tributary.common.types.Interval;
import io.tributary.common.types.PgTextFormat;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.sql.Struct;

/**
 * A row value ({@code ROW(1, 'a b', NULL)}, {@code (a, b)}) as PostgreSQL's {@code record_out}
 * prints it: {@code (1,"a b",)}. A NULL field is empty; a field is quoted when it is empty or holds
 * a parenthesis, comma, quote, backslash or white space, with quotes and backslashes doubled
 * inside. Avatica hands a result column of Calcite's ROW type over as a {@link Struct} whose
 * attributes are JDBC values, so each field is printed by its Java class in the text form of the
 * PostgreSQL type that class stands for ({@code t}/{@code f} for a boolean, {@code 2.5} for a
 * double, a nested row as its record text).
 */
final class PgRecordText {
    private PgRecordText() {}

    /** The record text of a ROW result column's value; null for SQL NULL. */
    static String format(Object value) throws SQLException {
        if (value == null) {
            return null;
        }
        Object[] fields = value instanceof Struct s ? s.getAttributes() : (Object[]) value;
        StringBuilder sb = new StringBuilder("(");
        for (int i = 0; i < fields.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            if (fields[i] != null) {
                appendField(sb, field(fields[i]));
            }
        }
        return sb.append(')').toString();
    }

    /** A field's text in its type's PostgreSQL text form. */
    private static String field(Object v) throws SQLException {
        if (v instanceof Boolean b) {
            return b ? "t" : "f";
        }
        if (v instanceof Double d) {
            return PgTextFormat.formatDouble(d);
        }
        if (v instanceof Float f) {
            return PgTextFormat.formatFloat(f);
        }
        if (v instanceof BigDecimal d) {
            return d.toPlainString();
        }
        if (v instanceof java.sql.Date d) {
            return PgTextFormat.formatDate((int) d.toLocalDate().toEpochDay());
        }
        if (v instanceof java.sql.Timestamp t) {
            // Avatica made it of the plan's microseconds read as milliseconds (MicrosecondPlans)
            java.time.LocalDateTime local = t.toLocalDateTime();
            return PgTextFormat.formatTimestamp(local.toLocalDate().toEpochDay() * 86_400_000L
                    + local.toLocalTime().toNanoOfDay() / 1_000_000L);
        }
        if (v instanceof java.sql.Time t) {
            // toLocalTime drops the milliseconds
            return PgTextFormat.formatTime(
                    t.toLocalTime().toNanoOfDay() / 1000L + Math.floorMod(t.getTime(), 1000L) * 1000L);
        }
        if (v instanceof Interval iv) {
            return PgTextFormat.formatInterval(iv);
        }
        if (v instanceof byte[] bytes) {
            return PgTextFormat.formatBytea(bytes);
        }
        if (v instanceof org.apache.calcite.avatica.util.ByteString bytes) {
            return PgTextFormat.formatBytea(bytes.getBytes());
        }
        if (v instanceof Struct || v instanceof Object[]) {
            return format(v);
        }
        if (v instanceof java.sql.Array a) {
            return PgArrayText.format(a);
        }
        if (v instanceof java.util.List<?> list) {
            return PgArrayText.format(list.toArray());
        }
        return v.toString();
    }

    private static void appendField(StringBuilder sb, String text) {
        boolean quote = text.isEmpty();
        for (int i = 0; i < text.length() && !quote; i++) {
            char c = text.charAt(i);
            // PostgreSQL's isspace() in the C locale: ASCII white space only
            quote = c == '"' || c == '\\' || c == '(' || c == ')' || c == ',' || c == ' ' || (c >= '\t' && c <= '\r');
        }
        if (!quote) {
            sb.append(text);
            return;
        }
        sb.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                sb.append(c);
            }
            sb.append(c);
        }
        sb.append('"');
    }
}

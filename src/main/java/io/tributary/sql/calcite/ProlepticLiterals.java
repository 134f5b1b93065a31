package io.tributary.sql.calcite;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlUnknownLiteral;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.TimestampString;

/**
 * Resolves {@code DATE '…'}, {@code TIMESTAMP '…'} and {@code TIMESTAMP WITH LOCAL TIME ZONE '…'}
 * literals in the proleptic Gregorian calendar, PostgreSQL's and the one Calcite's values (epoch
 * days and milliseconds) count in. Calcite's own resolution checks the text with {@code
 * SimpleDateFormat}, whose Julian/Gregorian hybrid calendar has no 1582-10-05 to 1582-10-14, so
 * such a literal failed although PostgreSQL takes it. Only canonical text ({@code yyyy-MM-dd},
 * {@code yyyy-MM-dd HH:mm:ss[.f…]}, what {@link DateTimeConstants} writes) naming a real date is
 * resolved here; anything else is left to Calcite, which reports it.
 *
 * <p>Called by {@link PgValidator#resolveLiteral} and {@link PgValueSemantics} on the thread
 * validating a statement. Stateless.
 */
final class ProlepticLiterals {
    private static final Pattern DATE = Pattern.compile("(\\d{4})-(\\d{2})-(\\d{2})");
    private static final Pattern TIMESTAMP =
            Pattern.compile("(\\d{4})-(\\d{2})-(\\d{2}) ([01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.(\\d{1,9}))?");

    private ProlepticLiterals() {}

    /**
     * The typed literal {@code unknown} stands for, or null when it is no date or timestamp
     * literal in canonical text of a real proleptic Gregorian date (Calcite resolves it then).
     */
    static SqlLiteral resolve(SqlUnknownLiteral unknown) {
        String tag = unknown.tag.toUpperCase(Locale.ROOT);
        String text = unknown.getValue();
        if (tag.equals("DATE")) {
            Matcher m = DATE.matcher(text);
            return m.matches() && realDate(m)
                    ? SqlLiteral.createDate(new DateString(text), unknown.getParserPosition())
                    : null;
        }
        SqlTypeName type = switch (tag) {
            case "TIMESTAMP" -> SqlTypeName.TIMESTAMP;
            case "TIMESTAMP WITH LOCAL TIME ZONE" -> SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
            default -> null;
        };
        if (type == null) {
            return null;
        }
        Matcher m = TIMESTAMP.matcher(text);
        if (!m.matches() || !realDate(m)) {
            return null;
        }
        String fraction = m.group(5);
        // the precision Calcite gives such a literal: its digits after the point
        int precision = fraction == null ? 0 : fraction.length();
        TimestampString value = new TimestampString(text.substring(0, 19));
        return SqlLiteral.createTimestamp(
                type, fraction == null ? value : value.withFraction(fraction), precision, unknown.getParserPosition());
    }

    private static boolean realDate(Matcher m) {
        try {
            LocalDate.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)));
            return true;
        } catch (DateTimeException e) {
            return false;
        }
    }
}

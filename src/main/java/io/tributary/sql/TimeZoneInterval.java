package io.tributary.sql;

import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import io.tributary.common.types.Interval;
import io.tributary.common.types.PgTextFormat;
import io.tributary.common.types.PgTimeZone;
import java.util.Set;

/**
 * The zone of {@code SET TIME ZONE INTERVAL '...' [qualifier]}: the interval's time east of
 * Greenwich, named as PostgreSQL names a fixed offset. Called by {@link SessionStatementParser}
 * on the session thread, after the word INTERVAL.
 */
final class TimeZoneInterval {
    private static final Set<String> UNITS = Set.of("year", "month", "day", "hour", "minute", "second");

    private TimeZoneInterval() {}

    /**
     * Reads the string constant and its optional qualifier ({@code HOUR TO MINUTE}); a bare
     * number is counted in the qualifier's first unit, as PostgreSQL's interval input reads it.
     *
     * @throws TributaryException 42601 without a string constant, 22007 for bad interval text,
     *     22023 for an interval with months or days
     */
    static PgTimeZone read(TokenCursor in) {
        Token text = in.next();
        if (text.kind() != Token.Kind.STRING) {
            throw TokenCursor.syntaxAt(text);
        }
        String unit = null;
        if (in.peek().kind() == Token.Kind.WORD && UNITS.contains(in.peek().text())) {
            unit = in.next().text();
            if (in.peek().isWord("to")) {
                in.next();
                Token last = in.next();
                if (last.kind() != Token.Kind.WORD || !UNITS.contains(last.text())) {
                    throw TokenCursor.syntaxAt(last);
                }
            }
        }
        String value = text.text().trim();
        if (unit != null && value.matches("[+-]?\\d+(\\.\\d*)?")) {
            value = value + " " + unit;
        }
        return PgTimeZone.ofInterval((Interval) PgTextFormat.parse(DataType.INTERVAL, value));
    }
}

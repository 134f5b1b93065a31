package io.tributary.sql;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;

/**
 * The statements about sinks: {@code CREATE SINK ... {FROM relation | AS query} WITH (...)}, {@code DROP SINK}
 * and {@code ALTER SINK ... SET SINK_RATE_LIMIT | RESYNC}. Options are not checked here; the sink
 * engine checks them (and the target) when the sink is created. Called by the statement parsers
 * on the parsing thread; stateless.
 */
final class SinkDdlParser {
    private static final String WITH_NEEDED = "CREATE SINK needs WITH (connector = 'jdbc', jdbc.url = '...', ...)";

    private SinkDdlParser() {}

    /**
     * After CREATE: {@code SINK [IF NOT EXISTS] name FROM relation WITH (name = 'value', ...)} or
     * {@code SINK [IF NOT EXISTS] name AS query WITH (...)}; the query is cut out as text for
     * Calcite, up to the last {@code WITH (} outside parentheses.
     *
     * @throws TributaryException 42601 without FROM or AS, without WITH, or for a malformed option
     */
    static UtilityStatement.CreateSink createSink(TokenCursor in) {
        in.expectWord("sink");
        boolean ifNotExists = in.acceptIfNotExists();
        String name = in.creationName();
        String relation = null;
        String query = null;
        if (in.peek().isWord("as")) {
            in.next();
            query = in.textBeforeTrailingWith(WITH_NEEDED);
        } else {
            in.expectWord("from");
            relation = in.qualifiedName();
        }
        Token with = in.peek();
        if (!with.isWord("with")) {
            throw TokenCursor.errorAt(SqlState.SYNTAX_ERROR, WITH_NEEDED, with);
        }
        in.next();
        return new UtilityStatement.CreateSink(
                name, ifNotExists, relation, query, SourceDdlParser.optionList(in), in.sql());
    }

    /** At DROP: {@code SINK [IF EXISTS] name}. */
    static UtilityStatement dropSink(TokenCursor in) {
        in.expectWord("sink");
        boolean ifExists = in.acceptIfExists();
        return new UtilityStatement.DropSink(in.qualifiedName(), ifExists);
    }

    /**
     * After ALTER: {@code SINK name SET SINK_RATE_LIMIT {= | TO} {n | DEFAULT}} or {@code SINK
     * name RESYNC}.
     *
     * @throws TributaryException 0A000 for any other ALTER SINK; 22023 for a rate that is not a
     *     whole number of rows per second
     */
    static UtilityStatement alterSink(TokenCursor in) {
        in.expectWord("sink");
        String name = in.qualifiedName();
        if (in.peek().isWord("resync")) {
            in.next();
            return new UtilityStatement.ResyncSink(name);
        }
        if (!in.peek().isWord("set")) {
            throw TributaryException.notSupported(
                    "ALTER SINK ... " + in.peek().text().toUpperCase());
        }
        in.next();
        if (!in.peek().isWord("sink_rate_limit")) {
            throw TributaryException.notSupported(
                    "ALTER SINK ... SET " + in.peek().text().toUpperCase());
        }
        in.next();
        in.expectEqualsOrTo();
        if (in.peek().isWord("default")) {
            in.next();
            return new UtilityStatement.AlterSinkRateLimit(name, -1);
        }
        Token at = in.peek();
        long rate = -1;
        if (at.kind() == Token.Kind.NUMBER && at.text().matches("\\d+")) {
            try {
                rate = Long.parseLong(at.text());
            } catch (NumberFormatException e) {
                // beyond BIGINT: reported below
            }
        }
        if (rate < 0) {
            throw TokenCursor.errorAt(
                    SqlState.INVALID_PARAMETER_VALUE,
                    "SINK_RATE_LIMIT must be a whole number of rows per second (0 pauses) or DEFAULT",
                    at);
        }
        in.next();
        return new UtilityStatement.AlterSinkRateLimit(name, rate);
    }
}

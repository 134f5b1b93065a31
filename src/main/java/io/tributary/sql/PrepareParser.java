package io.tributary.sql;

import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import io.tributary.common.types.Interval;
import io.tributary.common.types.PgTextFormat;
import io.tributary.common.types.TypeKind;
import java.util.ArrayList;
import java.util.List;

/**
 * The SQL-level prepared statements ({@code PREPARE}, {@code EXECUTE}, {@code DEALLOCATE}),
 * {@code EXPLAIN} of a query, and {@code SELECT set_config(...)}, which changes a setting and so is
 * a session statement, not a query. Called by {@link UtilityParser} at the statement's first word,
 * on the parsing thread; stateless.
 */
final class PrepareParser {
    private PrepareParser() {}

    /** {@code PREPARE name [(type, ...)] AS statement}; a type is the text of its tokens. */
    static UtilityStatement prepare(TokenCursor in) {
        in.next();
        String name = in.identifier();
        List<String> types = new ArrayList<>();
        if (in.acceptSymbol("(")) {
            do {
                types.add(textUntilComma(in));
            } while (in.acceptSymbol(","));
            in.expectSymbol(")");
        }
        in.expectWord("as");
        Token first = in.peek();
        if (first.kind() == Token.Kind.END) {
            throw TokenCursor.syntaxAt(first);
        }
        String body = stripSemicolon(in.sql().substring(first.position()));
        in.skipAll();
        return new UtilityStatement.Prepare(name, List.copyOf(types), body);
    }

    /** {@code EXECUTE name [(argument, ...)]}. */
    static UtilityStatement execute(TokenCursor in) {
        in.next();
        String name = in.identifier();
        List<String> arguments = new ArrayList<>();
        if (in.acceptSymbol("(")) {
            do {
                arguments.add(textUntilComma(in));
            } while (in.acceptSymbol(","));
            in.expectSymbol(")");
        }
        return new UtilityStatement.Execute(name, List.copyOf(arguments));
    }

    /** {@code DEALLOCATE [PREPARE] name | ALL}. */
    static UtilityStatement deallocate(TokenCursor in) {
        in.next();
        if (in.peek().isWord("prepare")) {
            in.next();
        }
        if (in.peek().isWord("all")) {
            in.next();
            return new UtilityStatement.Deallocate(null);
        }
        return new UtilityStatement.Deallocate(in.identifier());
    }

    /**
     * {@code EXPLAIN [(option value, ...)] query}, at EXPLAIN; null when what follows is no query
     * (EXPLAIN CREATE MATERIALIZED VIEW has its own parser).
     *
     * @throws TributaryException 0A000 for ANALYZE, a format other than TEXT, or EXPLAIN of DML
     */
    static UtilityStatement explain(TokenCursor in) {
        if (in.peekSecond().isWord("create")) {
            return null;
        }
        in.next();
        if (in.acceptSymbol("(")) {
            do {
                String option = in.identifier();
                String value = in.peek().isSymbol(",") || in.peek().isSymbol(")")
                        ? "true"
                        : in.next().text();
                checkOption(option, value);
            } while (in.acceptSymbol(","));
            in.expectSymbol(")");
        }
        while (in.peek().isWord("analyze")
                || in.peek().isWord("analyse")
                || in.peek().isWord("verbose")) {
            checkOption(in.next().text(), "true");
        }
        Token first = in.peek();
        if (first.kind() == Token.Kind.END) {
            throw TokenCursor.syntaxAt(first);
        }
        if (!first.isWord("select")
                && !first.isWord("with")
                && !first.isWord("values")
                && !first.isWord("table")
                && !first.isSymbol("(")) {
            throw TributaryException.notSupported("EXPLAIN " + first.text().toUpperCase(java.util.Locale.ROOT));
        }
        String query = stripSemicolon(in.sql().substring(first.position()));
        in.skipAll();
        return new UtilityStatement.ExplainQuery(query, first.position());
    }

    private static void checkOption(String option, String value) {
        boolean on = !value.equalsIgnoreCase("false") && !value.equalsIgnoreCase("off") && !value.equals("0");
        switch (option.toLowerCase(java.util.Locale.ROOT)) {
            case "format" -> {
                if (!value.equalsIgnoreCase("text")) {
                    throw TributaryException.notSupported(
                            "EXPLAIN (FORMAT " + value.toUpperCase(java.util.Locale.ROOT) + ")");
                }
            }
            case "analyze", "analyse", "buffers", "wal", "timing", "summary", "settings", "generic_plan" -> {
                if (on && !option.equalsIgnoreCase("timing") && !option.equalsIgnoreCase("summary")) {
                    throw TributaryException.notSupported("EXPLAIN " + option.toUpperCase(java.util.Locale.ROOT));
                }
            }
            case "verbose", "costs" -> {
                // the plan is Tributary's either way
            }
            default ->
                throw new TributaryException(
                        io.tributary.common.SqlState.SYNTAX_ERROR, "unrecognized EXPLAIN option \"" + option + "\"");
        }
    }

    /**
     * At SELECT: {@code SELECT [pg_catalog.]set_config('name', 'value', true|false) [;]} as a whole
     * statement, or null (leaving the cursor anywhere) for any other SELECT.
     */
    static UtilityStatement setConfig(TokenCursor in) {
        in.next();
        if (in.peek().isWord("pg_catalog") && in.peekSecond().isSymbol(".")) {
            in.next();
            in.next();
        }
        Token function = in.next();
        if (!in.acceptSymbol("(")) {
            return null;
        }
        if (function.isWord("pg_sleep") || function.isWord("pg_sleep_for")) {
            return sleep(function.isWord("pg_sleep"), in);
        }
        if (function.isWord("pg_cancel_backend") || function.isWord("pg_terminate_backend")) {
            return signal(function.isWord("pg_terminate_backend"), in);
        }
        if (!function.isWord("set_config")) {
            return null;
        }
        Token name = in.next();
        if (name.kind() != Token.Kind.STRING || !in.acceptSymbol(",")) {
            return null;
        }
        Token value = in.next();
        if (value.kind() != Token.Kind.STRING || !in.acceptSymbol(",")) {
            return null;
        }
        Token local = in.next();
        if (!(local.isWord("true") || local.isWord("false")) || !in.acceptSymbol(")")) {
            return null;
        }
        in.acceptSymbol(";");
        if (!in.atEnd()) {
            return null;
        }
        return new UtilityStatement.SetConfig(name.text(), value.text(), local.isWord("true"));
    }

    /**
     * After {@code SELECT pg_sleep(}: {@code [-]seconds ) [;]}, or after {@code SELECT pg_sleep_for(}:
     * {@code 'interval' [::interval] ) [;]}, to the end of the statement; null for anything else (a
     * query Calcite plans, where the function does not exist).
     */
    private static UtilityStatement sleep(boolean seconds, TokenCursor in) {
        long micros;
        if (seconds) {
            boolean negative = in.acceptSymbol("-");
            Token number = in.next();
            if (number.kind() != Token.Kind.NUMBER) {
                return null;
            }
            try {
                micros = (long) (Double.parseDouble(number.text()) * 1_000_000) * (negative ? -1 : 1);
            } catch (NumberFormatException e) {
                return null;
            }
        } else {
            Token text = in.next();
            if (text.kind() != Token.Kind.STRING) {
                return null;
            }
            if (in.acceptSymbol(":") && !(in.acceptSymbol(":") && in.next().isWord("interval"))) {
                return null;
            }
            Interval interval = (Interval) PgTextFormat.parse(DataType.of(TypeKind.INTERVAL), text.text());
            micros = interval.normalizedDays() * 86_400_000_000L + interval.microsOfDay();
        }
        if (!in.acceptSymbol(")")) {
            return null;
        }
        in.acceptSymbol(";");
        return in.atEnd() ? new UtilityStatement.Sleep(seconds ? "pg_sleep" : "pg_sleep_for", micros) : null;
    }

    /**
     * After {@code SELECT pg_cancel_backend(} or {@code SELECT pg_terminate_backend(}: an integer
     * {@code ) [;]} to the end of the statement; null for anything else (a query Calcite plans,
     * where the function does not exist).
     */
    private static UtilityStatement signal(boolean terminate, TokenCursor in) {
        boolean negative = in.acceptSymbol("-");
        Token number = in.next();
        if (number.kind() != Token.Kind.NUMBER || !in.acceptSymbol(")")) {
            return null;
        }
        long pid;
        try {
            pid = Long.parseLong(number.text()) * (negative ? -1 : 1);
        } catch (NumberFormatException e) {
            return null;
        }
        in.acceptSymbol(";");
        return in.atEnd()
                ? new UtilityStatement.SignalBackend(
                        terminate ? "pg_terminate_backend" : "pg_cancel_backend", pid, terminate)
                : null;
    }

    /** The text of the tokens up to a top-level {@code ,} or the closing {@code )}. */
    private static String textUntilComma(TokenCursor in) {
        int depth = 0;
        Token first = in.peek();
        Token last = null;
        while (true) {
            Token t = in.peek();
            if (t.kind() == Token.Kind.END) {
                throw TokenCursor.syntaxAt(t);
            }
            if (depth == 0 && (t.isSymbol(",") || t.isSymbol(")"))) {
                break;
            }
            if (t.isSymbol("(")) {
                depth++;
            } else if (t.isSymbol(")")) {
                depth--;
            }
            last = in.next();
        }
        if (last == null) {
            throw TokenCursor.syntaxAt(first);
        }
        return in.sql().substring(first.position(), in.peek().position()).trim();
    }

    private static String stripSemicolon(String text) {
        String t = text.strip();
        return t.endsWith(";") ? t.substring(0, t.length() - 1).strip() : t;
    }
}

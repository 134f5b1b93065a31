package io.tributary.sql;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.ArrayList;
import java.util.List;

/**
 * The statements about materialized views and the jobs that create them: {@code CREATE
 * MATERIALIZED VIEW}, {@code EXPLAIN CREATE MATERIALIZED VIEW}, {@code ALTER MATERIALIZED VIEW
 * ... SET}, {@code CANCEL JOBS} and {@code WAIT}. A view's query is not parsed here: it is cut out
 * as text for Calcite. Called by {@link UtilityParser} on the parsing thread; stateless.
 */
final class ViewJobParser {
    private ViewJobParser() {}

    /**
     * At EXPLAIN: {@code EXPLAIN CREATE MATERIALIZED VIEW ...}; null (nothing consumed) for any
     * other EXPLAIN, which is Calcite's.
     *
     * @throws TributaryException 0A000 for EXPLAIN CREATE of anything but a materialized view
     */
    static UtilityStatement explain(TokenCursor in) {
        if (!in.peekSecond().isWord("create")) {
            return null;
        }
        in.next();
        in.next();
        if (!in.peek().isWord("materialized")) {
            throw TributaryException.notSupported(
                    "EXPLAIN CREATE " + in.peek().text().toUpperCase());
        }
        UtilityStatement.CreateMaterializedView view = createMaterializedView(in);
        return new UtilityStatement.ExplainCreateMaterializedView(view.name(), view.query(), in.sql());
    }

    /**
     * After CREATE: {@code MATERIALIZED VIEW [IF NOT EXISTS] name AS query [EMIT ON WINDOW CLOSE]
     * | [WITH [NO] DATA]}.
     * The query is the rest of the text (without a trailing {@code ;}, with the EMIT clause); its
     * tokens are consumed unchecked.
     *
     * @throws TributaryException 0A000 for a column list or WITH options, 42601 without a query or
     *     with anything after a closing {@code EMIT ON WINDOW CLOSE}
     */
    static UtilityStatement.CreateMaterializedView createMaterializedView(TokenCursor in) {
        in.expectWord("materialized");
        in.expectWord("view");
        boolean ifNotExists = in.acceptIfNotExists();
        String name = in.creationName();
        if (in.peek().isSymbol("(")) {
            throw TributaryException.notSupported("column lists in CREATE MATERIALIZED VIEW");
        }
        if (in.peek().isWord("with")) {
            throw TributaryException.notSupported("WITH options in CREATE MATERIALIZED VIEW");
        }
        in.expectWord("as");
        Token start = in.peek();
        if (start.kind() == Token.Kind.END) {
            throw TokenCursor.syntaxAt(start);
        }
        String query = in.sql().substring(start.position()).strip();
        if (query.endsWith(";")) {
            query = query.substring(0, query.length() - 1).strip();
        }
        boolean withData = true;
        for (Token t = in.next(); t.kind() != Token.Kind.END; t = in.next()) {
            boolean noData = in.peek().isWord("no") && in.peekSecond().isWord("data");
            if (t.isWord("with") && (noData || in.peek().isWord("data")) && endsAfter(in, noData ? 2 : 1)) {
                // WITH [NO] DATA closes the statement; pg_dump writes WITH NO DATA and REFRESHes later
                query = in.sql().substring(start.position(), t.position()).strip();
                withData = !noData;
                in.skipAll();
                break;
            }
            if (t.isWord("emit") && in.peek().isWord("on") && in.peekSecond().isWord("window")) {
                // the clause stays in the query, where the view planner reads it (at CREATE and restart)
                in.next();
                in.next();
                in.expectWord("close");
                in.acceptSymbol(";");
                if (!in.atEnd()) {
                    throw TokenCursor.syntaxAt(in.peek());
                }
            }
        }
        return new UtilityStatement.CreateMaterializedView(name, ifNotExists, query, in.sql(), withData);
    }

    /** Whether only a {@code ;} at most follows the next {@code words} tokens. */
    private static boolean endsAfter(TokenCursor in, int words) {
        Token after = in.peekAhead(words);
        return after.kind() == Token.Kind.END
                || after.isSymbol(";") && in.peekAhead(words + 1).kind() == Token.Kind.END;
    }

    /**
     * After ALTER: {@code MATERIALIZED VIEW name SET PARALLELISM {= | TO} n}, {@code SET
     * BACKFILL_RATE_LIMIT {= | TO} {n | DEFAULT}} or {@code MATERIALIZED VIEW [IF EXISTS] name
     * RENAME TO new}.
     *
     * @throws TributaryException 0A000 for any other setting; 22023 for a parallelism outside
     *     1..256 or a rate that is not a whole number of rows per second
     */
    static UtilityStatement alterMaterializedView(TokenCursor in) {
        in.expectWord("materialized");
        in.expectWord("view");
        boolean ifExists = in.peek().isWord("if") && in.peekSecond().isWord("exists");
        if (ifExists) {
            in.next();
            in.next();
        }
        String name = in.qualifiedName();
        if (in.peek().isWord("rename") && in.peekSecond().isWord("to")) {
            in.next();
            in.next();
            String newName = in.identifier();
            if (!in.atEnd()) {
                throw TokenCursor.syntaxAt(in.peek());
            }
            return new UtilityStatement.RenameRelation(
                    name, ifExists, newName, io.tributary.catalog.RelationKind.MATERIALIZED_VIEW);
        }
        if (ifExists) {
            throw TributaryException.notSupported("ALTER MATERIALIZED VIEW IF EXISTS other than RENAME TO");
        }
        in.expectWord("set");
        if (in.peek().isWord("backfill_rate_limit")) {
            in.next();
            in.expectEqualsOrTo();
            if (in.peek().isWord("default")) {
                in.next();
                return new UtilityStatement.AlterViewBackfillRate(name, -1);
            }
            return new UtilityStatement.AlterViewBackfillRate(name, rowsPerSecond(in));
        }
        if (!in.peek().isWord("parallelism")) {
            throw TributaryException.notSupported(
                    "ALTER MATERIALIZED VIEW ... SET " + in.peek().text().toUpperCase());
        }
        in.next();
        in.expectEqualsOrTo();
        Token at = in.peek();
        int parallelism = in.integer();
        if (parallelism < 1 || parallelism > 256) {
            throw TokenCursor.errorAt(SqlState.INVALID_PARAMETER_VALUE, "parallelism must be between 1 and 256", at);
        }
        return new UtilityStatement.AlterViewParallelism(name, parallelism);
    }

    /**
     * A backfill rate: a whole number of rows per second, 0 or more. A sign, a fraction or a number
     * beyond BIGINT is a bad value (22023), as for {@code SET backfill_rate_limit}, not a syntax error.
     */
    private static long rowsPerSecond(TokenCursor in) {
        Token at = in.peek();
        boolean negative = in.acceptSymbol("-");
        Token t = in.next();
        if (t.kind() != Token.Kind.NUMBER) {
            throw TokenCursor.syntaxAt(t);
        }
        long rate = -1;
        if (!negative && t.text().matches("\\d+")) {
            try {
                rate = Long.parseLong(t.text());
            } catch (NumberFormatException e) {
                // beyond BIGINT: reported below
            }
        }
        if (rate < 0) {
            throw new TributaryException(
                    SqlState.INVALID_PARAMETER_VALUE,
                    "invalid value for backfill_rate_limit: " + (negative ? "-" : "") + t.text(),
                    at.position() + 1,
                    null,
                    "Use a number of rows per second (0 pauses), or DEFAULT for no limit.",
                    null);
        }
        return rate;
    }

    /** At CANCEL: {@code CANCEL JOB[S] id [, id ...]}. */
    static UtilityStatement cancelJobs(TokenCursor in) {
        in.next();
        if (!in.peek().isWord("jobs") && !in.peek().isWord("job")) {
            throw TokenCursor.syntaxAt(in.peek());
        }
        in.next();
        List<Integer> ids = new ArrayList<>();
        do {
            ids.add(in.integer());
        } while (in.acceptSymbol(","));
        return new UtilityStatement.CancelJobs(ids);
    }

    /** At WAIT: {@code WAIT [MATERIALIZED VIEW name]}. */
    static UtilityStatement waitFor(TokenCursor in) {
        in.next();
        if (in.peek().isWord("materialized")) {
            in.next();
            in.expectWord("view");
            return new UtilityStatement.Wait(in.qualifiedName());
        }
        return new UtilityStatement.Wait(null);
    }

    /**
     * {@code REFRESH MATERIALIZED VIEW [CONCURRENTLY] name [WITH DATA]}: a Tributary materialized
     * view is always current, so refreshing it waits for its backfill.
     *
     * @throws TributaryException 0A000 for {@code WITH NO DATA} (a view that cannot be read)
     */
    static UtilityStatement refresh(TokenCursor in) {
        in.next();
        in.expectWord("materialized");
        in.expectWord("view");
        boolean concurrently = in.peek().isWord("concurrently");
        if (concurrently) {
            in.next();
        }
        String name = in.qualifiedName();
        if (in.peek().isWord("with")) {
            in.next();
            if (in.peek().isWord("no")) {
                throw TributaryException.notSupported("REFRESH MATERIALIZED VIEW ... WITH NO DATA");
            }
            in.expectWord("data");
        }
        return new UtilityStatement.RefreshMaterializedView(name, concurrently);
    }

    /**
     * After CREATE: {@code [OR REPLACE] VIEW name [(column, ...)] AS query}.
     *
     * @throws TributaryException 0A000 for view options ({@code WITH (...)}, {@code WITH CHECK
     *     OPTION}), temporary and recursive views
     */
    static UtilityStatement createView(TokenCursor in) {
        boolean orReplace = false;
        if (in.peek().isWord("or")) {
            in.next();
            in.expectWord("replace");
            orReplace = true;
        }
        if (in.peek().isWord("temp") || in.peek().isWord("temporary")) {
            throw PostgresOnlyStatements.temporaryRelation("CREATE " + (orReplace ? "OR REPLACE " : "")
                    + in.peek().text().toUpperCase() + " VIEW");
        }
        if (in.peek().isWord("recursive")) {
            throw TributaryException.notSupported("CREATE RECURSIVE VIEW");
        }
        if (in.peek().isWord("materialized")) {
            throw TributaryException.notSupported("CREATE OR REPLACE MATERIALIZED VIEW");
        }
        in.expectWord("view");
        String name = in.creationName();
        List<String> columns = in.peek().isSymbol("(") ? in.identifierList() : List.of();
        if (in.peek().isWord("with")) {
            throw TributaryException.notSupported("view options (WITH ...)");
        }
        Token as = in.peek();
        in.expectWord("as");
        int start = in.peek().position();
        int end = in.sql().length();
        int depth = 0;
        while (!in.atEnd()) {
            Token t = in.next();
            depth += t.isSymbol("(") ? 1 : t.isSymbol(")") ? -1 : 0;
            if (depth == 0 && t.isSymbol(";")) {
                end = t.position();
                in.skipAll();
            } else if (depth == 0 && t.isWord("with") && in.peek().isWord("check")) {
                throw TributaryException.notSupported("WITH CHECK OPTION");
            }
        }
        String query = in.sql().substring(start, end).trim();
        if (query.isEmpty()) {
            throw TokenCursor.syntaxAt(as);
        }
        return new UtilityStatement.CreateView(name, orReplace, columns, query, in.sql());
    }
}

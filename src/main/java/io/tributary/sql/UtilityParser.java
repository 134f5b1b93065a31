package io.tributary.sql;

import io.tributary.common.TributaryException;
import java.util.Optional;

/**
 * Tributary's own front end for the statements Calcite's grammar does not cover: table DDL and
 * connector clauses ({@link TableDdlParser}, {@link SourceDdlParser}), sinks ({@link SinkDdlParser}), views and jobs ({@link
 * ViewJobParser}), session statements ({@link SessionStatementParser}) and COPY ({@link
 * CopyParser}). This class only routes a statement by its first words to the parser of its
 * family and checks that nothing follows it but an optional {@code ;}.
 *
 * <p>Called by the Calcite front end for every statement before Calcite sees it, on the
 * session's thread. Stateless and thread-safe.
 */
public final class UtilityParser {
    private UtilityParser() {}

    /**
     * Parses one statement.
     *
     * @return the statement; empty when it is not one of Tributary's own (a query, DML, or an
     *     EXPLAIN other than EXPLAIN CREATE MATERIALIZED VIEW), which is Calcite's to parse
     * @throws TributaryException with PostgreSQL's SQLSTATE when the statement is one of
     *     Tributary's own but malformed (42601, with the 1-based position of the offending token)
     *     or asks for something Tributary does not do (0A000)
     */
    public static Optional<UtilityStatement> parse(String sql) {
        return parse(sql, io.tributary.catalog.Catalog.DATABASE);
    }

    /**
     * Like {@link #parse(String)}, in database {@code database}: a relation name qualified by another
     * database is 0A000.
     */
    public static Optional<UtilityStatement> parse(String sql, String database) {
        return parse(new TokenCursor(sql, database, null, null));
    }

    /**
     * Like {@link #parse(String)}, in {@code catalog}'s database with the session's search path: a
     * relation named in a schema other than {@code public} is 3F000 when the schema does not exist
     * and 0A000 when it does (only {@code public} holds relations so far), and so is a relation
     * created while the search path's first existing schema is not {@code public}; 3F000 when the
     * path names no existing schema.
     */
    public static Optional<UtilityStatement> parse(
            String sql, io.tributary.catalog.Catalog catalog, io.tributary.catalog.SearchPath path) {
        return parse(new TokenCursor(sql, catalog.database(), catalog, path));
    }

    private static Optional<UtilityStatement> parse(TokenCursor in) {
        UtilityStatement statement = statement(in);
        if (statement == null) {
            return Optional.empty();
        }
        in.acceptSymbol(";");
        if (!in.atEnd()) {
            throw TokenCursor.syntaxAt(in.peek());
        }
        return Optional.of(statement);
    }

    private static UtilityStatement statement(TokenCursor in) {
        Token first = in.peek();
        if (first.kind() != Token.Kind.WORD) {
            return null;
        }
        PostgresOnlyStatements.refuseStatement(in);
        return switch (first.text()) {
            case "create" -> create(in);
            case "alter" -> alter(in);
            case "drop" -> TableDdlParser.drop(in);
            case "truncate" -> TableDdlParser.truncate(in);
            case "lock" -> TableDdlParser.lock(in);
            case "explain" -> {
                UtilityStatement query = PrepareParser.explain(in);
                yield query != null ? query : ViewJobParser.explain(in);
            }
            case "prepare" -> PrepareParser.prepare(in);
            case "execute" -> PrepareParser.execute(in);
            case "deallocate" -> PrepareParser.deallocate(in);
            case "select" -> PrepareParser.setConfig(in);
            case "refresh" -> in.peekSecond().isWord("materialized") ? ViewJobParser.refresh(in) : null;
            case "comment" -> in.peekSecond().isWord("on") ? CommentParser.parse(in) : null;
            case "grant", "revoke" ->
                // pg_dump's scripts write them; Tributary keeps no privileges
                throw TributaryException.notSupported(first.text().toUpperCase(java.util.Locale.ROOT));
            case "cancel" -> ViewJobParser.cancelJobs(in);
            case "wait" -> ViewJobParser.waitFor(in);
            case "copy" -> CopyParser.copy(in);
            case "set",
                    "reset",
                    "show",
                    "describe",
                    "desc",
                    "flush",
                    "discard",
                    "begin",
                    "start",
                    "commit",
                    "end",
                    "rollback",
                    "abort",
                    "savepoint",
                    "release" -> SessionStatementParser.parse(in);
            default -> null;
        };
    }

    private static UtilityStatement create(TokenCursor in) {
        in.next();
        Token what = in.peek();
        if (what.isWord("materialized")) {
            return ViewJobParser.createMaterializedView(in);
        }
        if (what.isWord("sink")) {
            return SinkDdlParser.createSink(in);
        }
        if (what.isWord("database")) {
            return DatabaseDdlParser.create(in);
        }
        // CREATE [OR REPLACE] FUNCTION, TRIGGER, ROLE, ...
        PostgresOnlyStatements.refuseCreate(in);
        if (what.isWord("view") || what.isWord("or")) {
            return ViewJobParser.createView(in);
        }
        if (what.isWord("schema")) {
            return SchemaDdlParser.create(in);
        }
        if (what.isWord("sequence")) {
            return SequenceDdlParser.create(in);
        }
        if (what.isWord("index") || what.isWord("unique") && in.peekSecond().isWord("index")) {
            return IndexDdlParser.create(in);
        }
        if (what.isWord("temporary") || what.isWord("temp")) {
            throw PostgresOnlyStatements.temporaryRelation("CREATE "
                    + what.text().toUpperCase() + " " + in.peekSecond().text().toUpperCase());
        }
        if (what.isWord("unlogged")) {
            throw TributaryException.notSupported("CREATE UNLOGGED TABLE");
        }
        return TableDdlParser.createTable(in);
    }

    private static UtilityStatement alter(TokenCursor in) {
        in.next();
        if (OwnerChangeParser.isOwnerChange(in)) {
            return OwnerChangeParser.parse(in);
        }
        if (in.peek().isWord("table") || in.peek().isWord("source")) {
            return SourceDdlParser.alterTable(in);
        }
        if (in.peek().isWord("sink")) {
            return SinkDdlParser.alterSink(in);
        }
        if (in.peek().isWord("sequence")) {
            return SequenceDdlParser.alter(in);
        }
        if (!in.peek().isWord("materialized")) {
            throw TributaryException.notSupported("ALTER " + in.peek().text().toUpperCase());
        }
        return ViewJobParser.alterMaterializedView(in);
    }
}

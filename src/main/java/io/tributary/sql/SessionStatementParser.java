package io.tributary.sql;

import io.tributary.common.TributaryException;

/**
 * The statements that act on the session rather than on data: {@code SET}, {@code RESET},
 * {@code SHOW} (settings, tables, views, jobs, columns), {@code DESCRIBE}, {@code FLUSH},
 * {@code DISCARD ALL} and transaction control ({@code BEGIN}, {@code START TRANSACTION},
 * {@code COMMIT}, {@code END}, {@code ROLLBACK}, {@code ABORT}, {@code SAVEPOINT}, {@code RELEASE},
 * {@code ROLLBACK TO}). Called by {@link UtilityParser}
 * on the parsing thread; stateless.
 */
final class SessionStatementParser {
    private SessionStatementParser() {}

    /** At the statement's first word, one of those {@link UtilityParser} routes here. */
    static UtilityStatement parse(TokenCursor in) {
        return switch (in.peek().text()) {
            case "set" -> set(in);
            case "reset" -> reset(in);
            case "show" -> show(in);
            case "describe", "desc" -> {
                in.next();
                yield new UtilityStatement.ShowColumns(in.identifier());
            }
            case "flush" -> {
                in.next();
                yield new UtilityStatement.Flush();
            }
            case "discard" -> {
                in.next();
                in.expectWord("all");
                yield new UtilityStatement.NoOp("DISCARD ALL");
            }
            case "begin", "start" -> begin(in);
            case "commit", "end" -> endTransaction(in, UtilityStatement.TransactionVerb.COMMIT);
            case "rollback", "abort" -> endTransaction(in, UtilityStatement.TransactionVerb.ROLLBACK);
            case "savepoint" -> {
                in.next();
                yield savepointNamed(in, UtilityStatement.SavepointVerb.SET);
            }
            case "release" -> {
                in.next();
                if (in.peek().isWord("savepoint")) {
                    in.next();
                }
                yield savepointNamed(in, UtilityStatement.SavepointVerb.RELEASE);
            }
            default ->
                throw new IllegalStateException(
                        "not a session statement: " + in.peek().text());
        };
    }

    /**
     * {@code SET [SESSION | LOCAL] name {= | TO} {value [, ...] | DEFAULT}} and {@code SET TIME ZONE
     * value}; the values are joined with ", " as PostgreSQL shows a list setting. SET TRANSACTION
     * and SET SESSION CHARACTERISTICS are accepted and ignored (there is one isolation level).
     */
    private static UtilityStatement set(TokenCursor in) {
        in.next();
        if (in.peek().isWord("session") || in.peek().isWord("local")) {
            in.next();
            if (in.peek().isWord("characteristics")) {
                in.skipRest();
                return new UtilityStatement.NoOp("SET");
            }
        }
        if (in.peek().isWord("transaction")) {
            in.skipRest();
            return new UtilityStatement.NoOp("SET");
        }
        Token nameTok = in.next();
        if (!nameTok.isIdentifier()) {
            throw TokenCursor.syntaxAt(nameTok);
        }
        String name = nameTok.text().toLowerCase();
        if (name.equals("time") && in.peek().isWord("zone")) {
            in.next();
            if (in.peek().isWord("local")) {
                in.next();
                return new UtilityStatement.SetVariable("timezone", null);
            }
            if (in.peek().isWord("interval")) {
                in.next();
                return new UtilityStatement.SetVariable(
                        "timezone", TimeZoneInterval.read(in).name());
            }
            name = "timezone";
        } else if (!in.acceptSymbol("=") && !in.peek().isWord("to")) {
            throw TokenCursor.syntaxAt(in.peek());
        } else if (in.peek().isWord("to")) {
            in.next();
        }
        if (in.peek().isWord("default")) {
            in.next();
            return new UtilityStatement.SetVariable(name, null);
        }
        StringBuilder value = new StringBuilder();
        do {
            Token v = in.next();
            if (v.kind() == Token.Kind.END) {
                throw TokenCursor.syntaxAt(v);
            }
            if (value.length() > 0) {
                value.append(", ");
            }
            if (v.isSymbol("-") && in.peek().kind() == Token.Kind.NUMBER) {
                value.append('-').append(in.next().text());
            } else if (name.equals("search_path")) {
                // a list of names: each element is shown quoted where needed, as PostgreSQL shows it
                value.append(io.tributary.catalog.SearchPath.quoted(v.text()));
            } else {
                value.append(v.text());
            }
        } while (in.acceptSymbol(","));
        return new UtilityStatement.SetVariable(name, value.toString());
    }

    /** {@code RESET name}, {@code RESET ALL}. */
    private static UtilityStatement reset(TokenCursor in) {
        in.next();
        Token t = in.next();
        if (!t.isIdentifier()) {
            throw TokenCursor.syntaxAt(t);
        }
        return new UtilityStatement.ResetVariable(t.text().toLowerCase());
    }

    /**
     * {@code SHOW TABLES | MATERIALIZED VIEWS | JOBS | SINKS | SOURCES | DATABASES | COLUMNS {FROM | IN} table | TRANSACTION
     * ISOLATION LEVEL | name | ALL}.
     */
    private static UtilityStatement show(TokenCursor in) {
        in.next();
        Token t = in.next();
        if (t.isWord("tables")) {
            return new UtilityStatement.ShowTables();
        }
        if (t.isWord("materialized")) {
            in.expectWord("views");
            return new UtilityStatement.ShowMaterializedViews();
        }
        if (t.isWord("jobs")) {
            return new UtilityStatement.ShowJobs();
        }
        if (t.isWord("sinks")) {
            return new UtilityStatement.ShowSinks();
        }
        if (t.isWord("sources")) {
            return new UtilityStatement.ShowSources();
        }
        if (t.isWord("databases")) {
            return new UtilityStatement.ShowDatabases();
        }
        if (t.isWord("columns")) {
            if (!in.peek().isWord("from") && !in.peek().isWord("in")) {
                throw TokenCursor.syntaxAt(in.peek());
            }
            in.next();
            return new UtilityStatement.ShowColumns(in.qualifiedName());
        }
        if (t.isWord("transaction")) {
            in.expectWord("isolation");
            in.expectWord("level");
            return new UtilityStatement.ShowVariable("transaction_isolation");
        }
        if (t.isIdentifier()) {
            return new UtilityStatement.ShowVariable(t.text().toLowerCase());
        }
        throw TokenCursor.syntaxAt(t);
    }

    /** {@code BEGIN [...]}, {@code START TRANSACTION [...]}; modes are accepted and ignored. */
    private static UtilityStatement begin(TokenCursor in) {
        Token first = in.next();
        boolean start = first.isWord("start");
        if (start) {
            in.expectWord("transaction");
        }
        in.skipRest();
        return new UtilityStatement.Transaction(
                start ? UtilityStatement.TransactionVerb.START : UtilityStatement.TransactionVerb.BEGIN);
    }

    /**
     * {@code COMMIT}, {@code END}, {@code ROLLBACK}, {@code ABORT} with optional noise words.
     *
     * {@code ROLLBACK [WORK | TRANSACTION] TO [SAVEPOINT] name} is a {@link UtilityStatement.Savepoint}.
     *
     * @throws TributaryException 0A000 for COMMIT/ROLLBACK PREPARED (two-phase commit)
     */
    private static UtilityStatement endTransaction(TokenCursor in, UtilityStatement.TransactionVerb verb) {
        Token first = in.next();
        if (in.peek().isWord("prepared")) {
            throw TributaryException.notSupported("two-phase commit");
        }
        if (first.isWord("rollback")) {
            if (in.peek().isWord("work") || in.peek().isWord("transaction")) {
                in.next();
            }
            if (in.peek().isWord("to")) {
                in.next();
                if (in.peek().isWord("savepoint")) {
                    in.next();
                }
                return savepointNamed(in, UtilityStatement.SavepointVerb.ROLLBACK_TO);
            }
        }
        in.skipRest();
        return new UtilityStatement.Transaction(verb);
    }

    /** The savepoint's name, the statement's last token (the caller refuses anything after it). */
    private static UtilityStatement savepointNamed(TokenCursor in, UtilityStatement.SavepointVerb verb) {
        return new UtilityStatement.Savepoint(verb, in.identifier());
    }
}

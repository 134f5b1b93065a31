package io.tributary.sql;

import io.tributary.common.TributaryException;
import java.util.Map;

/**
 * PostgreSQL 14's statements (its SQL Commands reference) that Tributary recognises but does not
 * support, refused with 0A000 naming the statement rather than 42601: the statement is PostgreSQL's,
 * only its meaning is missing. Read from the statement's first words alone; a statement named here
 * is refused whatever follows them. Stateless.
 */
final class PostgresOnlyStatements {
    private PostgresOnlyStatements() {}

    /** Statements told by their first word, and the name they are refused by. */
    private static final Map<String, String> BY_FIRST_WORD = Map.ofEntries(
            Map.entry("analyze", "ANALYZE"),
            Map.entry("analyse", "ANALYZE"),
            Map.entry("checkpoint", "CHECKPOINT"),
            Map.entry("close", "CLOSE"),
            Map.entry("cluster", "CLUSTER"),
            Map.entry("declare", "DECLARE"),
            Map.entry("do", "DO"),
            Map.entry("fetch", "FETCH"),
            Map.entry("import", "IMPORT FOREIGN SCHEMA"),
            Map.entry("listen", "LISTEN"),
            Map.entry("load", "LOAD"),
            Map.entry("move", "MOVE"),
            Map.entry("notify", "NOTIFY"),
            Map.entry("reassign", "REASSIGN OWNED"),
            Map.entry("reindex", "REINDEX"),
            Map.entry("security", "SECURITY LABEL"),
            Map.entry("unlisten", "UNLISTEN"),
            Map.entry("vacuum", "VACUUM"));

    /**
     * The objects of PostgreSQL's CREATE statements that Tributary does not create, by the word
     * after {@code CREATE} (and after {@code OR REPLACE}), and the statement they are refused by.
     */
    private static final Map<String, String> CREATED = Map.ofEntries(
            Map.entry("access", "CREATE ACCESS METHOD"),
            Map.entry("aggregate", "CREATE AGGREGATE"),
            Map.entry("cast", "CREATE CAST"),
            Map.entry("collation", "CREATE COLLATION"),
            Map.entry("constraint", "CREATE TRIGGER"),
            Map.entry("conversion", "CREATE CONVERSION"),
            Map.entry("default", "CREATE CONVERSION"),
            Map.entry("domain", "CREATE DOMAIN"),
            Map.entry("event", "CREATE EVENT TRIGGER"),
            Map.entry("extension", "CREATE EXTENSION"),
            Map.entry("function", "CREATE FUNCTION"),
            Map.entry("global", "CREATE TEMPORARY TABLE"),
            Map.entry("group", "CREATE GROUP"),
            Map.entry("language", "CREATE LANGUAGE"),
            Map.entry("local", "CREATE TEMPORARY TABLE"),
            Map.entry("operator", "CREATE OPERATOR"),
            Map.entry("policy", "CREATE POLICY"),
            Map.entry("procedural", "CREATE LANGUAGE"),
            Map.entry("procedure", "CREATE PROCEDURE"),
            Map.entry("publication", "CREATE PUBLICATION"),
            Map.entry("recursive", "CREATE RECURSIVE VIEW"),
            Map.entry("role", "CREATE ROLE"),
            Map.entry("rule", "CREATE RULE"),
            Map.entry("server", "CREATE SERVER"),
            Map.entry("statistics", "CREATE STATISTICS"),
            Map.entry("subscription", "CREATE SUBSCRIPTION"),
            Map.entry("tablespace", "CREATE TABLESPACE"),
            Map.entry("text", "CREATE TEXT SEARCH"),
            Map.entry("transform", "CREATE TRANSFORM"),
            Map.entry("trigger", "CREATE TRIGGER"),
            Map.entry("trusted", "CREATE LANGUAGE"),
            Map.entry("type", "CREATE TYPE"),
            Map.entry("user", "CREATE USER"));

    /**
     * Throws 0A000 when the statement at {@code in} is one of PostgreSQL's that Tributary does not
     * support and told by its first word; returns otherwise, {@code in} unmoved.
     */
    static void refuseStatement(TokenCursor in) {
        Token first = in.peek();
        String name = BY_FIRST_WORD.get(first.text());
        if (name != null && first.kind() == Token.Kind.WORD) {
            throw TributaryException.notSupported(name);
        }
        if (first.isWord("prepare")
                && in.peekSecond().isWord("transaction")
                && in.peekThird().kind() == Token.Kind.STRING) {
            throw TributaryException.notSupported("two-phase commit");
        }
        if (first.isWord("set")) {
            Token second = in.peekSecond();
            if (second.isWord("role") || second.isWord("constraints")) {
                throw TributaryException.notSupported("SET " + second.text().toUpperCase(java.util.Locale.ROOT));
            }
            if (second.isWord("session") && in.peekThird().isWord("authorization")) {
                throw TributaryException.notSupported("SET SESSION AUTHORIZATION");
            }
        }
    }

    /**
     * The 0A000 refusal of {@code statement} ({@code CREATE TEMP VIEW}), which creates a temporary
     * relation: Tributary's tables, views and sequences are all durable and shared by sessions.
     */
    static TributaryException temporaryRelation(String statement) {
        return new TributaryException(
                io.tributary.common.SqlState.FEATURE_NOT_SUPPORTED,
                statement + " is not supported: Tributary has no temporary tables, views or sequences");
    }

    /**
     * Throws 0A000 when the words at {@code in}, after {@code CREATE} (or {@code CREATE OR REPLACE}),
     * start the creation of an object Tributary does not have; returns otherwise, {@code in} unmoved.
     */
    static void refuseCreate(TokenCursor in) {
        int at = in.peek().isWord("or") && in.peekSecond().isWord("replace") ? 2 : 0;
        Token what = in.peekAhead(at);
        if (what.isWord("foreign")) {
            throw TributaryException.notSupported(
                    in.peekAhead(at + 1).isWord("table") ? "CREATE FOREIGN TABLE" : "CREATE FOREIGN DATA WRAPPER");
        }
        String name = what.kind() == Token.Kind.WORD ? CREATED.get(what.text()) : null;
        if (name != null) {
            throw TributaryException.notSupported(name);
        }
    }
}

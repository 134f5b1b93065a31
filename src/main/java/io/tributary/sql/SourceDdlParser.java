package io.tributary.sql;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The connector side of table DDL: the {@code WITH (connector = ...) [FORMAT ... ENCODE ...]}
 * clause that makes a CREATE TABLE ingest from a source, and {@code ALTER TABLE ... SET
 * SOURCE_RATE_LIMIT}. Connector names and options are not checked here; the connector does that
 * when the table is created. Called by the statement parsers on the parsing thread; stateless.
 */
final class SourceDdlParser {
    private SourceDdlParser() {}

    /**
     * At WITH after CREATE TABLE's column list: {@code WITH (name = 'value', ...) [FORMAT f ENCODE
     * e [(name = 'value', ...)]]}. Names are dotted identifiers (e.g. {@code fields.id.kind}),
     * lower-cased; values are string literals (bare numbers are taken as their text).
     *
     * @throws TributaryException 42601 without {@code connector = '...'} or for a malformed option;
     *     0A000 for a FORMAT other than PLAIN or an ENCODE other than CSV and JSON
     */
    static UtilityStatement.SourceClause sourceClause(TokenCursor in) {
        Token with = in.next();
        Map<String, String> options = optionList(in);
        String connector = options.remove("connector");
        if (connector == null) {
            throw TokenCursor.errorAt(
                    SqlState.SYNTAX_ERROR,
                    "WITH options of CREATE TABLE need connector = '...' naming the table's source",
                    with);
        }
        String format = null;
        String encode = null;
        Map<String, String> formatOptions = Map.of();
        if (in.peek().isWord("format")) {
            in.next();
            Token f = in.next();
            if (!f.isWord("plain")) {
                throw f.kind() == Token.Kind.WORD
                        ? TributaryException.notSupported(
                                "FORMAT " + f.text().toUpperCase() + "; only FORMAT PLAIN is supported")
                        : TokenCursor.syntaxAt(f);
            }
            in.expectWord("encode");
            Token e = in.next();
            if (!e.isWord("csv") && !e.isWord("json")) {
                throw e.kind() == Token.Kind.WORD
                        ? TributaryException.notSupported(
                                "ENCODE " + e.text().toUpperCase() + "; the encodings are CSV and JSON")
                        : TokenCursor.syntaxAt(e);
            }
            format = "PLAIN";
            encode = e.text().toUpperCase();
            if (in.peek().isSymbol("(")) {
                formatOptions = optionList(in);
            }
        }
        return new UtilityStatement.SourceClause(connector.toLowerCase(), options, format, encode, formatOptions);
    }

    /** {@code (name = 'value', ...)}: names lower-cased, each at most once, in the order written. */
    static Map<String, String> optionList(TokenCursor in) {
        in.expectSymbol("(");
        Map<String, String> out = new LinkedHashMap<>();
        do {
            Token at = in.peek();
            StringBuilder name = new StringBuilder(in.identifier().toLowerCase());
            while (in.acceptSymbol(".")) {
                name.append('.').append(in.identifier().toLowerCase());
            }
            in.expectSymbol("=");
            Token v = in.next();
            String value;
            if (v.kind() == Token.Kind.STRING || v.kind() == Token.Kind.NUMBER) {
                value = v.text();
            } else if (v.isSymbol("-") && in.peek().kind() == Token.Kind.NUMBER) {
                value = "-" + in.next().text();
            } else {
                throw TokenCursor.errorAt(
                        SqlState.SYNTAX_ERROR,
                        "the value of option \"" + name + "\" must be a string literal, e.g. '" + v.text() + "'",
                        v);
            }
            if (out.put(name.toString(), value) != null) {
                throw TokenCursor.errorAt(
                        SqlState.SYNTAX_ERROR, "option \"" + name + "\" specified more than once", at);
            }
        } while (in.acceptSymbol(","));
        in.expectSymbol(")");
        return out;
    }

    /**
     * After ALTER: {@code TABLE [IF EXISTS] [ONLY] name} then {@code SET SOURCE_RATE_LIMIT {= | TO}
     * {n | DEFAULT}}, or the ADD, ALTER [COLUMN], DROP and RENAME actions {@link AlterTableParser} reads.
     *
     * @throws TributaryException 0A000 for any other ALTER TABLE; 22023 for a rate that is not a
     *     whole number of rows per second or beyond BIGINT
     */
    static UtilityStatement alterTable(TokenCursor in) {
        if (in.peek().isWord("source")) {
            // ALTER SOURCE name SET SOURCE_RATE_LIMIT ...: the one ALTER a source takes
            in.next();
            String source = in.qualifiedName();
            if (!in.peek().isWord("set") || !in.peekSecond().isWord("source_rate_limit")) {
                throw TributaryException.notSupported("ALTER SOURCE other than SET SOURCE_RATE_LIMIT");
            }
            in.next();
            return rateLimit(in, source);
        }
        in.expectWord("table");
        boolean ifExists = in.peek().isWord("if") && in.peekSecond().isWord("exists");
        if (ifExists) {
            in.next();
            in.next();
        }
        // pg_dump writes ALTER TABLE ONLY t ...; a table here has no children, so ONLY changes nothing
        if (in.peek().isWord("only") && !in.peekSecond().isSymbol(".")) {
            in.next();
        }
        String name = in.qualifiedName();
        if (in.peek().isWord("add")) {
            return AlterTableParser.onlyIfExists(AlterTableParser.add(in, name, ifExists), ifExists);
        }
        if (in.peek().isWord("alter")) {
            return AlterTableParser.onlyIfExists(AlterTableParser.alterColumn(in, name), ifExists);
        }
        if (in.peek().isWord("drop")) {
            return AlterTableParser.onlyIfExists(AlterTableParser.drop(in, name, ifExists), ifExists);
        }
        if (in.peek().isWord("rename")) {
            return AlterTableParser.rename(in, name, ifExists);
        }
        if (ifExists) {
            throw TributaryException.notSupported(
                    "ALTER TABLE IF EXISTS ... " + in.peek().text().toUpperCase());
        }
        if (!in.peek().isWord("set")) {
            String action = in.next().text().toUpperCase();
            if (action.equals("ALTER") || action.equals("ADD") || action.equals("DROP") || action.equals("OWNER")) {
                // name what pg_dump's scripts use: ADD CONSTRAINT, ALTER COLUMN, OWNER TO
                String second = in.peek().text().toUpperCase();
                action += " " + (in.peek().kind() == Token.Kind.WORD ? second : "");
            }
            throw TributaryException.notSupported("ALTER TABLE ... " + action.strip());
        }
        in.next();
        if (!in.peek().isWord("source_rate_limit")) {
            throw TributaryException.notSupported(
                    "ALTER TABLE ... SET " + in.peek().text().toUpperCase());
        }
        return rateLimit(in, name);
    }

    /** At {@code SOURCE_RATE_LIMIT} of table or source {@code name}: {@code {= | TO} {rows | DEFAULT}}. */
    private static UtilityStatement rateLimit(TokenCursor in, String name) {
        in.next();
        in.expectEqualsOrTo();
        if (in.peek().isWord("default")) {
            in.next();
            return new UtilityStatement.AlterSourceRateLimit(name, -1);
        }
        Token at = in.peek();
        if (at.kind() != Token.Kind.NUMBER || at.text().contains(".")) {
            throw TokenCursor.errorAt(
                    SqlState.INVALID_PARAMETER_VALUE,
                    "SOURCE_RATE_LIMIT must be a whole number of rows per second (0 pauses) or DEFAULT",
                    at);
        }
        in.next();
        long rate;
        try {
            rate = Long.parseLong(at.text());
        } catch (NumberFormatException e) {
            throw TokenCursor.errorAt(
                    SqlState.INVALID_PARAMETER_VALUE, "SOURCE_RATE_LIMIT " + at.text() + " is too large", at);
        }
        return new UtilityStatement.AlterSourceRateLimit(name, rate);
    }
}

package io.tributary.sql;

import io.tributary.catalog.SystemTables;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.List;

/**
 * {@code COPY table [(columns)] FROM STDIN [[WITH] (option, ...) | option ...]}, with
 * PostgreSQL's option names and defaults for the text and CSV formats, and {@code COPY table
 * [(columns)] | (query) TO STDOUT [options]}, which reads as the query's rows. Server-side files
 * are refused. Called by {@link
 * UtilityParser} on the parsing thread; stateless.
 */
final class CopyParser {
    private CopyParser() {}

    /**
     * At COPY: the statement. A table named in the system table schema is returned with {@code
     * systemTable} set, so the session can refuse it with its own message.
     *
     * @throws TributaryException 0A000 for COPY TO, COPY (query), COPY FROM a file, the binary
     *     format, another encoding than UTF8, or a delimiter, quote or escape longer than one
     *     character; 42601 for an unknown option (at its position)
     */
    static UtilityStatement copy(TokenCursor in) {
        in.next();
        if (in.peek().isSymbol("(")) {
            return copyQueryTo(in);
        }
        if (in.peek().isWord(SNAPSHOT_FUNCTION) && in.peekSecond().isSymbol("(")) {
            return copySnapshot(in);
        }
        boolean systemTable = in.peek().isIdentifier()
                && in.peek().text().equals(SystemTables.SCHEMA)
                && in.peekSecond().isSymbol(".");
        if (systemTable) {
            in.next();
            in.next();
        }
        String table = systemTable ? in.identifier() : in.qualifiedName();
        List<String> columns = in.peek().isSymbol("(") ? in.identifierList() : List.of();
        if (in.peek().isWord("to")) {
            StringBuilder query = new StringBuilder("SELECT ");
            if (columns.isEmpty()) {
                query.append('*');
            } else {
                for (int i = 0; i < columns.size(); i++) {
                    query.append(i > 0 ? ", " : "").append(quoted(columns.get(i)));
                }
            }
            // a qualified name stays qualified: pg_dump names public.t with an empty search path
            query.append(" FROM ")
                    .append(systemTable ? quoted(SystemTables.SCHEMA) + "." + quoted(table) : in.lastNameAsSql());
            return copyTo(in, query.toString());
        }
        in.expectWord("from");
        if (!in.peek().isWord("stdin")) {
            throw TributaryException.notSupported("COPY FROM a server file; use COPY FROM STDIN (psql's \\copy)");
        }
        in.next();
        return new UtilityStatement.CopyFrom(table, systemTable, columns, options(in));
    }

    /** At the {@code (} of {@code COPY (query) TO STDOUT}: the query is the text up to its closing parenthesis. */
    private static UtilityStatement copyQueryTo(TokenCursor in) {
        Token open = in.next();
        int depth = 1;
        Token t;
        do {
            t = in.next();
            if (t.kind() == Token.Kind.END) {
                throw TokenCursor.syntaxAt(t);
            }
            if (t.isSymbol("(")) {
                depth++;
            } else if (t.isSymbol(")")) {
                depth--;
            }
        } while (depth > 0);
        String query = in.sql().substring(open.position() + 1, t.position()).strip();
        if (!in.peek().isWord("to")) {
            throw in.peek().isWord("from")
                    ? TributaryException.notSupported("COPY (query) FROM")
                    : TokenCursor.syntaxAt(in.peek());
        }
        return copyTo(in, query);
    }

    /** At TO: {@code TO STDOUT [options]}. */
    private static UtilityStatement copyTo(TokenCursor in, String query) {
        in.next();
        if (!in.peek().isWord("stdout")) {
            throw TributaryException.notSupported(
                    "COPY TO a server file or program; use COPY TO STDOUT (psql's \\copy)");
        }
        in.next();
        return new UtilityStatement.CopyTo(query, options(in));
    }

    /**
     * The exported-snapshot reader workers call: {@code COPY tributary_snapshot('id', vnode, 'after
     * key', limit [, 'text' | 'binary' [, last vnode]]) TO STDOUT}; with {@code 'binary'} the piece
     * comes in PostgreSQL's binary COPY format, and with a last vnode it goes on through the vnodes
     * up to that one.
     */
    static final String SNAPSHOT_FUNCTION = "tributary_snapshot";

    private static UtilityStatement copySnapshot(TokenCursor in) {
        in.next();
        in.expectSymbol("(");
        String id = string(in);
        in.expectSymbol(",");
        int vnode = in.integer();
        in.expectSymbol(",");
        String after = string(in);
        in.expectSymbol(",");
        int limit = in.integer();
        boolean binary = false;
        int lastVnode = vnode;
        if (in.acceptSymbol(",")) {
            Token format = in.next();
            binary = isWordOrString(format, "binary");
            if (!binary && !isWordOrString(format, "text")) {
                throw TokenCursor.syntaxAt(format);
            }
            if (in.acceptSymbol(",")) {
                lastVnode = in.integer();
            }
        }
        in.expectSymbol(")");
        if (!in.peek().isWord("to")) {
            throw TokenCursor.syntaxAt(in.peek());
        }
        in.next();
        in.expectWord("stdout");
        return new UtilityStatement.CopySnapshot(id, vnode, lastVnode, after, limit, binary, options(in));
    }

    private static String string(TokenCursor in) {
        Token t = in.next();
        if (t.kind() != Token.Kind.STRING) {
            throw TokenCursor.syntaxAt(t);
        }
        return t.text();
    }

    private static String quoted(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    /**
     * The options after STDIN, both the parenthesized form and the pre-9.0 bare form. Boolean
     * options may be followed by TRUE/ON (and HEADER by FALSE/OFF). Unset options take the
     * format's defaults: tab or comma, {@code \N} or the empty string as NULL, escape = quote.
     */
    private static UtilityStatement.CopyFormat options(TokenCursor in) {
        boolean csv = false;
        Character delimiter = null;
        String nullString = null;
        boolean header = false;
        char quote = '"';
        Character escape = null;
        if (in.peek().isWord("with")) {
            in.next();
        }
        boolean parenthesized = in.acceptSymbol("(");
        while (in.peek().kind() == Token.Kind.WORD) {
            Token opt = in.next();
            switch (opt.text()) {
                case "format" -> {
                    Token f = in.next();
                    if (isWordOrString(f, "csv")) {
                        csv = true;
                    } else if (!isWordOrString(f, "text")) {
                        throw TributaryException.notSupported("COPY format " + f.text());
                    }
                }
                case "csv" -> csv = true;
                case "binary" -> throw TributaryException.notSupported("COPY binary format");
                case "header" -> {
                    header = true;
                    if (in.peek().isWord("false") || in.peek().isWord("off")) {
                        in.next();
                        header = false;
                    }
                }
                case "delimiter" -> delimiter = singleChar(in.next(), "COPY delimiter");
                case "null" -> nullString = stringValue(in.next());
                case "quote" -> quote = singleChar(in.next(), "COPY quote");
                case "escape" -> escape = singleChar(in.next(), "COPY escape");
                case "encoding" -> {
                    String enc = stringValue(in.next());
                    if (!enc.equalsIgnoreCase("utf8") && !enc.equalsIgnoreCase("utf-8")) {
                        throw TributaryException.notSupported("COPY encoding " + enc);
                    }
                }
                default ->
                    throw TokenCursor.errorAt(
                            SqlState.SYNTAX_ERROR, "option \"" + opt.text() + "\" not recognized", opt);
            }
            if (in.peek().isWord("true") || in.peek().isWord("on")) {
                in.next();
            }
            if (parenthesized) {
                in.acceptSymbol(",");
            }
        }
        if (parenthesized) {
            in.expectSymbol(")");
        }
        return new UtilityStatement.CopyFormat(
                csv,
                delimiter != null ? delimiter : csv ? ',' : '\t',
                nullString != null ? nullString : csv ? "" : "\\N",
                header,
                quote,
                escape != null ? escape : quote);
    }

    private static boolean isWordOrString(Token t, String value) {
        return t.isWord(value) || t.kind() == Token.Kind.STRING && t.text().equalsIgnoreCase(value);
    }

    private static char singleChar(Token t, String what) {
        String s = stringValue(t);
        // one byte in UTF-8, as PostgreSQL requires: the COPY readers compare it byte for byte
        if (s.length() != 1 || s.charAt(0) >= 0x80) {
            throw new TributaryException(SqlState.FEATURE_NOT_SUPPORTED, what + " must be a single one-byte character");
        }
        return s.charAt(0);
    }

    private static String stringValue(Token t) {
        if (t.kind() == Token.Kind.END) {
            throw TokenCursor.syntaxAt(t);
        }
        return t.text();
    }
}

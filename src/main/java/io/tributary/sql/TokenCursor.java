package io.tributary.sql;

import io.tributary.catalog.SystemTables;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.ArrayList;
import java.util.List;

/**
 * The tokens of one utility statement and the position of the parse in them, with the small
 * grammar pieces every statement family shares (names, integers, lists, syntax errors). The
 * statement parsers move it forward; one instance per parse, on the parsing thread.
 *
 * <p>Error positions are 1-based character offsets into {@link #sql()}, as PostgreSQL reports
 * them in an ErrorResponse.
 */
final class TokenCursor {
    private final String sql;
    private final List<Token> tokens;
    /** The session's database: the only one a three-part name may name. */
    private final String database;

    private int pos;

    /** The session's database's catalog, for its schemas; null when the parse only classifies a statement. */
    private final io.tributary.catalog.Catalog catalog;
    /** The session's search path, for where unqualified names are created; null with {@link #catalog}. */
    private final io.tributary.catalog.SearchPath path;

    TokenCursor(String sql) {
        this(sql, io.tributary.catalog.Catalog.DATABASE, null, null);
    }

    TokenCursor(
            String sql, String database, io.tributary.catalog.Catalog catalog, io.tributary.catalog.SearchPath path) {
        this.sql = sql;
        this.tokens = Lexer.tokenize(sql);
        this.database = database;
        this.catalog = catalog;
        this.path = path;
    }

    /** The whole statement text as the client sent it. */
    String sql() {
        return sql;
    }

    Token peek() {
        return tokens.get(pos);
    }

    /** The token after the next one; END when there is none. */
    Token peekSecond() {
        return tokens.get(Math.min(pos + 1, tokens.size() - 1));
    }

    /** The token two after the next one; END when there is none. */
    Token peekThird() {
        return tokens.get(Math.min(pos + 2, tokens.size() - 1));
    }

    /** The token {@code ahead} after the next one (0: the next); END when there is none. */
    Token peekAhead(int ahead) {
        return tokens.get(Math.min(pos + ahead, tokens.size() - 1));
    }

    /**
     * At {@code (}: consumes a parenthesised expression and returns the text between the
     * parentheses as written.
     *
     * @throws TributaryException 42601 when the parentheses do not close
     */
    String parenthesizedText() {
        Token open = next();
        if (!open.isSymbol("(")) {
            throw syntaxAt(open);
        }
        int depth = 1;
        while (true) {
            Token t = next();
            if (t.kind() == Token.Kind.END) {
                throw syntaxAt(t);
            }
            if (t.isSymbol("(")) {
                depth++;
            } else if (t.isSymbol(")") && --depth == 0) {
                String text = sql.substring(open.position() + 1, t.position()).trim();
                if (text.isEmpty()) {
                    throw syntaxAt(t);
                }
                return text;
            }
        }
    }

    /** Consumes and returns the next token; at the end it stays at END. */
    Token next() {
        Token t = tokens.get(pos);
        if (t.kind() != Token.Kind.END) {
            pos++;
        }
        return t;
    }

    boolean atEnd() {
        return peek().kind() == Token.Kind.END;
    }

    boolean acceptSymbol(String s) {
        if (peek().isSymbol(s)) {
            pos++;
            return true;
        }
        return false;
    }

    void expectSymbol(String s) {
        if (!acceptSymbol(s)) {
            throw syntaxAt(peek());
        }
    }

    void expectWord(String w) {
        if (!peek().isWord(w)) {
            throw syntaxAt(peek());
        }
        pos++;
    }

    /** Consumes {@code =} or {@code TO}, the two spellings of assignment in SET and ALTER ... SET. */
    void expectEqualsOrTo() {
        if (!acceptSymbol("=")) {
            expectWord("to");
        }
    }

    /** Consumes {@code IF NOT EXISTS} when it comes next; true when it did. */
    boolean acceptIfNotExists() {
        if (!peek().isWord("if")) {
            return false;
        }
        next();
        expectWord("not");
        expectWord("exists");
        return true;
    }

    /** Consumes {@code IF EXISTS} when it comes next; true when it did. */
    boolean acceptIfExists() {
        if (!peek().isWord("if")) {
            return false;
        }
        next();
        expectWord("exists");
        return true;
    }

    /** Consumes {@code CASCADE} or {@code RESTRICT} when one comes next; true only for CASCADE. */
    boolean acceptCascade() {
        return (peek().isWord("cascade") || peek().isWord("restrict")) && next().isWord("cascade");
    }

    /** Skips to the end of the statement (or its {@code ;}): for clauses accepted and ignored. */
    void skipRest() {
        while (!atEnd() && !peek().isSymbol(";")) {
            next();
        }
    }

    /** Skips every remaining token: the rest of the statement belongs to another parser (Calcite). */
    void skipAll() {
        while (!atEnd()) {
            next();
        }
    }

    /**
     * For {@code ... AS query WITH (options)}: the text from the next token up to the last {@code
     * WITH (} outside parentheses (a query's own WITH is followed by a name, never by {@code (}),
     * leaving the cursor on that WITH.
     *
     * @throws TributaryException 42601 when the query is empty or no such WITH follows, at the end
     */
    String textBeforeTrailingWith(String message) {
        Token first = peek();
        int depth = 0;
        int with = -1;
        for (int i = pos; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            if (t.isSymbol("(")) {
                depth++;
            } else if (t.isSymbol(")")) {
                depth--;
            } else if (depth == 0
                    && t.isWord("with")
                    && tokens.get(Math.min(i + 1, tokens.size() - 1)).isSymbol("(")) {
                with = i;
            }
        }
        if (with <= pos) {
            throw errorAt(SqlState.SYNTAX_ERROR, message, tokens.get(with < 0 ? tokens.size() - 1 : with));
        }
        pos = with;
        return sql.substring(first.position(), peek().position()).strip();
    }

    String identifier() {
        Token t = next();
        if (!t.isIdentifier()) {
            throw syntaxAt(t);
        }
        return t.text();
    }

    /** {@code (name, ...)}. */
    List<String> identifierList() {
        expectSymbol("(");
        List<String> out = new ArrayList<>();
        do {
            out.add(identifier());
        } while (acceptSymbol(","));
        expectSymbol(")");
        return out;
    }

    /**
     * A possibly qualified relation name ({@code [[database.]schema.]name}), returned as the
     * catalog's {@linkplain io.tributary.catalog.Catalog#key key}: a qualified name keys its schema,
     * an unqualified one the first schema of the search path holding such a relation ({@link
     * io.tributary.catalog.Catalog#resolve}). A database other than the session's is 0A000, as in
     * PostgreSQL; system tables are only read with SELECT.
     *
     * @throws TributaryException 42809 for the system table schema, 3F000 for a schema that does not
     *     exist, 0A000 for another database
     */
    String qualifiedName() {
        List<String> parts = new ArrayList<>();
        parts.add(identifier());
        while (acceptSymbol(".")) {
            parts.add(identifier());
        }
        return keyOf(parts);
    }

    /** The catalog key of the relation {@code parts} name, as {@link #qualifiedName} reads it. */
    String keyOf(List<String> parts) {
        if (parts.size() > 3) {
            throw new TributaryException(
                    SqlState.SYNTAX_ERROR,
                    "improper qualified name (too many dotted names): " + String.join(".", parts));
        }
        if (parts.size() == 3 && !parts.get(0).equals(database)) {
            throw new TributaryException(
                    SqlState.FEATURE_NOT_SUPPORTED,
                    "cross-database references are not implemented: " + String.join(".", parts));
        }
        String name = parts.get(parts.size() - 1);
        localName = name;
        qualifiedSchema = null;
        if (parts.size() > 1) {
            String schema = parts.get(parts.size() - 2);
            if (schema.equals(SystemTables.SCHEMA)) {
                throw new TributaryException(
                        SqlState.WRONG_OBJECT_TYPE,
                        "schema \"" + schema + "\" holds system tables, which can only be read with SELECT");
            }
            // a database's name before the relation's was taken for a schema before three-part names
            if (parts.size() == 2 && schema.equals(database) && (catalog == null || !catalog.schemaExists(schema))) {
                schema = io.tributary.catalog.Catalog.SCHEMA;
            }
            if (!schema.equals(io.tributary.catalog.Catalog.SCHEMA)
                    && (catalog == null || !catalog.schemaExists(schema))) {
                throw new TributaryException(SqlState.INVALID_SCHEMA_NAME, "schema \"" + schema + "\" does not exist");
            }
            qualifiedSchema = schema;
            return io.tributary.catalog.Catalog.key(schema, name);
        }
        return catalog == null || path == null ? name : catalog.resolve(path, name);
    }

    /** The schema the last {@link #qualifiedName} named, null when it named none. */
    private String qualifiedSchema;

    /**
     * The last name {@link #qualifiedName} read, as SQL text naming the same relation whatever the
     * search path: schema and name quoted when it named a schema, else the quoted name (which the
     * statement's query resolves through the path as {@link #qualifiedName} did).
     */
    String lastNameAsSql() {
        String name = '"' + localName.replace("\"", "\"\"") + '"';
        return qualifiedSchema == null ? name : '"' + qualifiedSchema.replace("\"", "\"\"") + "\"." + name;
    }

    /** The last name {@link #qualifiedName} read, without its qualifiers. */
    private String localName;

    /**
     * The name of a relation being created, as the catalog's key: in the schema it names, else in
     * the search path's first existing schema, as in PostgreSQL.
     *
     * @throws TributaryException as {@link #qualifiedName}; 3F000 when the search path names no
     *     existing schema; 0A000 for a name containing {@code .} outside {@code public} (keys would
     *     be ambiguous)
     */
    String creationName() {
        qualifiedName();
        String schema = qualifiedSchema;
        if (schema == null && path != null) {
            schema = path.current();
            if (schema == null) {
                throw new TributaryException(SqlState.INVALID_SCHEMA_NAME, "no schema has been selected to create in");
            }
        }
        if (schema == null || schema.equals(io.tributary.catalog.Catalog.SCHEMA)) {
            return localName;
        }
        if (localName.indexOf('.') >= 0) {
            throw TributaryException.notSupported("a relation name containing \".\" outside schema public");
        }
        return io.tributary.catalog.Catalog.key(schema, localName);
    }

    /**
     * After DEFAULT in a column definition: the text of the default expression, up to the next
     * comma or closing parenthesis outside parentheses, or a constraint keyword that ends it. The
     * expression's first token always belongs to it ({@code DEFAULT NULL}).
     */
    String columnDefaultText() {
        Token first = next();
        if (first.kind() == Token.Kind.END || first.isSymbol(",") || first.isSymbol(")")) {
            throw syntaxAt(first);
        }
        int depth = first.isSymbol("(") ? 1 : 0;
        while (!atEnd()) {
            Token t = peek();
            if (depth == 0 && (t.isSymbol(",") || t.isSymbol(")") || endsDefault(t))) {
                break;
            }
            if (t.isSymbol("(")) {
                depth++;
            } else if (t.isSymbol(")")) {
                depth--;
            }
            next();
        }
        return sql.substring(first.position(), peek().position()).trim();
    }

    private static boolean endsDefault(Token t) {
        return t.kind() == Token.Kind.WORD
                && switch (t.text()) {
                    case "not",
                            "null",
                            "primary",
                            "unique",
                            "references",
                            "check",
                            "generated",
                            "collate",
                            "constraint" -> true;
                    default -> false;
                };
    }

    /**
     * An unsigned whole number that fits an int.
     *
     * @throws TributaryException 42601 for anything else, 22003 for a number beyond int, as
     *     PostgreSQL's integer input says it
     */
    int integer() {
        Token t = next();
        if (t.kind() != Token.Kind.NUMBER || t.text().contains(".")) {
            throw syntaxAt(t);
        }
        try {
            return Integer.parseInt(t.text());
        } catch (NumberFormatException e) {
            throw errorAt(
                    SqlState.NUMERIC_VALUE_OUT_OF_RANGE,
                    "value \"" + t.text() + "\" is out of range for type integer",
                    t);
        }
    }

    /** 42601 "syntax error at or near" the token, at its position. */
    static TributaryException syntaxAt(Token t) {
        return errorAt(
                SqlState.SYNTAX_ERROR,
                t.kind() == Token.Kind.END
                        ? "syntax error at end of input"
                        : "syntax error at or near \"" + t.text() + "\"",
                t);
    }

    /** An error with {@code sqlState} pointing at the token. */
    static TributaryException errorAt(String sqlState, String message, Token t) {
        return new TributaryException(sqlState, message, t.position() + 1, null, null, null);
    }
}

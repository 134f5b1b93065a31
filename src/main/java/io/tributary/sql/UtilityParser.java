package io.tributary.sql;

import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.RelationKind;
import io.tributary.catalog.SystemTables;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Parses the statements Calcite's grammar does not cover (CREATE/DROP TABLE, SHOW, SET, RESET,
 * FLUSH, transaction control, COPY). Queries and DML go to Calcite. Stateless and thread-safe.
 */
public final class UtilityParser {
    private final List<Token> tokens;
    private final String sql;
    private int pos;

    private UtilityParser(String sql) {
        this.sql = sql;
        this.tokens = Lexer.tokenize(sql);
    }

    /** The statement, or empty when it is a query or DML for Calcite. */
    public static Optional<UtilityStatement> parse(String sql) {
        return Optional.ofNullable(new UtilityParser(sql).statement());
    }

    private UtilityStatement statement() {
        Token first = peek();
        if (first.kind() != Token.Kind.WORD) {
            return null;
        }
        UtilityStatement result = switch (first.text()) {
            case "create" -> create();
            case "alter" -> alter();
            case "explain" -> explain();
            case "drop" -> drop();
            case "show" -> show();
            case "describe", "desc" -> {
                next();
                yield new UtilityStatement.ShowColumns(identifier());
            }
            case "set" -> set();
            case "reset" -> reset();
            case "flush" -> {
                next();
                yield new UtilityStatement.Flush();
            }
            case "begin", "start" -> begin();
            case "commit", "end" -> endTransaction(UtilityStatement.TransactionVerb.COMMIT);
            case "rollback", "abort" -> endTransaction(UtilityStatement.TransactionVerb.ROLLBACK);
            case "copy" -> copy();
            case "cancel" -> cancelJobs();
            case "wait" -> waitFor();
            case "discard" -> {
                next();
                expectWord("all");
                yield new UtilityStatement.NoOp("DISCARD ALL");
            }
            default -> null;
        };
        if (result != null && peek().isSymbol(";")) {
            next();
        }
        if (result != null && peek().kind() != Token.Kind.END) {
            throw syntaxAt(peek());
        }
        return result;
    }

    /** EXPLAIN CREATE MATERIALIZED VIEW; any other EXPLAIN is left to Calcite (null). */
    private UtilityStatement explain() {
        if (!tokens.get(pos + 1).isWord("create")) {
            return null;
        }
        next();
        next();
        if (!peek().isWord("materialized")) {
            throw TributaryException.notSupported("EXPLAIN CREATE " + peek().text().toUpperCase());
        }
        UtilityStatement.CreateMaterializedView view = createMaterializedView();
        return new UtilityStatement.ExplainCreateMaterializedView(view.name(), view.query(), sql);
    }

    /** After CREATE: MATERIALIZED VIEW [IF NOT EXISTS] name AS query; the query is the rest of the text. */
    private UtilityStatement.CreateMaterializedView createMaterializedView() {
        expectWord("materialized");
        expectWord("view");
        boolean ifNotExists = acceptIfNotExists();
        String name = qualifiedName();
        if (peek().isSymbol("(")) {
            throw TributaryException.notSupported("column lists in CREATE MATERIALIZED VIEW");
        }
        if (peek().isWord("with")) {
            throw TributaryException.notSupported("WITH options in CREATE MATERIALIZED VIEW");
        }
        expectWord("as");
        Token start = peek();
        if (start.kind() == Token.Kind.END) {
            throw syntaxAt(start);
        }
        String query = sql.substring(start.position()).strip();
        if (query.endsWith(";")) {
            query = query.substring(0, query.length() - 1).strip();
        }
        // the query is Calcite's to parse: skip its tokens
        while (peek().kind() != Token.Kind.END) {
            next();
        }
        return new UtilityStatement.CreateMaterializedView(name, ifNotExists, query, sql);
    }

    /** CANCEL JOB[S] id [, id ...]. */
    private UtilityStatement cancelJobs() {
        next();
        if (!peek().isWord("jobs") && !peek().isWord("job")) {
            throw syntaxAt(peek());
        }
        next();
        List<Integer> ids = new ArrayList<>();
        do {
            ids.add(integer());
        } while (acceptSymbol(","));
        return new UtilityStatement.CancelJobs(ids);
    }

    /** WAIT [MATERIALIZED VIEW name]. */
    private UtilityStatement waitFor() {
        next();
        if (peek().isWord("materialized")) {
            next();
            expectWord("view");
            return new UtilityStatement.Wait(qualifiedName());
        }
        return new UtilityStatement.Wait(null);
    }

    /**
     * ALTER MATERIALIZED VIEW name SET PARALLELISM {= | TO} n, or SET BACKFILL_RATE_LIMIT {= | TO}
     * {n | DEFAULT}, or ALTER TABLE name SET SOURCE_RATE_LIMIT {= | TO} {n | DEFAULT}; other ALTERs
     * are not supported.
     */
    private UtilityStatement alter() {
        next();
        if (peek().isWord("table")) {
            return alterTable();
        }
        if (!peek().isWord("materialized")) {
            throw TributaryException.notSupported("ALTER " + peek().text().toUpperCase());
        }
        next();
        expectWord("view");
        String name = qualifiedName();
        expectWord("set");
        if (peek().isWord("backfill_rate_limit")) {
            next();
            if (!acceptSymbol("=")) {
                expectWord("to");
            }
            if (peek().isWord("default")) {
                next();
                return new UtilityStatement.AlterViewBackfillRate(name, -1);
            }
            return new UtilityStatement.AlterViewBackfillRate(name, rowsPerSecond());
        }
        if (!peek().isWord("parallelism")) {
            throw TributaryException.notSupported("ALTER MATERIALIZED VIEW ... SET " + peek().text().toUpperCase());
        }
        next();
        if (!acceptSymbol("=")) {
            expectWord("to");
        }
        Token at = peek();
        int parallelism = integer();
        if (parallelism < 1 || parallelism > 256) {
            throw new TributaryException(SqlState.INVALID_PARAMETER_VALUE, "parallelism must be between 1 and 256",
                    at.position() + 1, null, null, null);
        }
        return new UtilityStatement.AlterViewParallelism(name, parallelism);
    }

    /**
     * A backfill rate: a whole number of rows per second, 0 or more. A sign, a fraction or a number
     * beyond BIGINT is a bad value (22023), as for {@code SET backfill_rate_limit}, not a syntax error.
     */
    private long rowsPerSecond() {
        Token at = peek();
        boolean negative = acceptSymbol("-");
        Token t = next();
        if (t.kind() != Token.Kind.NUMBER) {
            throw syntaxAt(t);
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
            throw new TributaryException(SqlState.INVALID_PARAMETER_VALUE, "invalid value for backfill_rate_limit: "
                    + (negative ? "-" : "") + t.text(), at.position() + 1, null,
                    "Use a number of rows per second (0 pauses), or DEFAULT for no limit.", null);
        }
        return rate;
    }

    /** After ALTER: TABLE name SET SOURCE_RATE_LIMIT {= | TO} {n | DEFAULT}. */
    private UtilityStatement alterTable() {
        next();
        String name = qualifiedName();
        if (!peek().isWord("set")) {
            throw TributaryException.notSupported("ALTER TABLE ... " + peek().text().toUpperCase());
        }
        next();
        if (!peek().isWord("source_rate_limit")) {
            throw TributaryException.notSupported("ALTER TABLE ... SET " + peek().text().toUpperCase());
        }
        next();
        if (!acceptSymbol("=")) {
            expectWord("to");
        }
        if (peek().isWord("default")) {
            next();
            return new UtilityStatement.AlterSourceRateLimit(name, -1);
        }
        Token at = peek();
        if (at.kind() != Token.Kind.NUMBER || at.text().contains(".")) {
            throw new TributaryException(SqlState.INVALID_PARAMETER_VALUE,
                    "SOURCE_RATE_LIMIT must be a whole number of rows per second (0 pauses) or DEFAULT",
                    at.position() + 1, null, null, null);
        }
        next();
        long rate;
        try {
            rate = Long.parseLong(at.text());
        } catch (NumberFormatException e) {
            throw new TributaryException(SqlState.INVALID_PARAMETER_VALUE, "SOURCE_RATE_LIMIT " + at.text()
                    + " is too large", at.position() + 1, null, null, null);
        }
        return new UtilityStatement.AlterSourceRateLimit(name, rate);
    }

    /** Consumes {@code IF NOT EXISTS} if it comes next. */
    private boolean acceptIfNotExists() {
        if (!peek().isWord("if")) {
            return false;
        }
        next();
        expectWord("not");
        expectWord("exists");
        return true;
    }

    private UtilityStatement create() {
        next();
        if (peek().isWord("materialized")) {
            return createMaterializedView();
        }
        if (peek().isWord("view") || peek().isWord("index")
                || peek().isWord("source") || peek().isWord("sink") || peek().isWord("function")
                || peek().isWord("schema") || peek().isWord("database") || peek().isWord("user")) {
            throw TributaryException.notSupported("CREATE " + peek().text().toUpperCase());
        }
        if (peek().isWord("temporary") || peek().isWord("temp") || peek().isWord("unlogged")) {
            throw TributaryException.notSupported("CREATE " + peek().text().toUpperCase() + " TABLE");
        }
        expectWord("table");
        boolean ifNotExists = acceptIfNotExists();
        String name = qualifiedName();
        if (peek().isWord("as")) {
            throw TributaryException.notSupported("CREATE TABLE AS");
        }
        expectSymbol("(");
        List<ColumnDef> columns = new ArrayList<>();
        List<String> pk = new ArrayList<>();
        Set<String> notNull = new LinkedHashSet<>();
        do {
            if (peek().isWord("primary")) {
                Token at = next();
                expectWord("key");
                if (!pk.isEmpty()) {
                    throw multiplePk(name, at);
                }
                pk.addAll(identifierList());
                if (pk.isEmpty()) {
                    throw syntaxAt(at);
                }
            } else if (peek().isWord("constraint") || peek().isWord("unique") || peek().isWord("foreign")
                    || peek().isWord("check") || peek().isWord("exclude")) {
                throw TributaryException.notSupported("table constraint " + peek().text().toUpperCase());
            } else {
                Token colTok = peek();
                String col = identifier();
                for (ColumnDef c : columns) {
                    if (c.name().equals(col)) {
                        throw new TributaryException(SqlState.DUPLICATE_COLUMN, "column \"" + col
                                + "\" specified more than once", colTok.position() + 1, null, null, null);
                    }
                }
                if (col.equals(TableDef.ROW_ID)) {
                    throw new TributaryException(SqlState.DUPLICATE_COLUMN, "column name \"" + col
                            + "\" is reserved for the hidden row id");
                }
                DataType type = type();
                boolean colNotNull = false;
                while (true) {
                    if (peek().isWord("not")) {
                        next();
                        expectWord("null");
                        colNotNull = true;
                    } else if (peek().isWord("null")) {
                        next();
                    } else if (peek().isWord("primary")) {
                        Token at = next();
                        expectWord("key");
                        if (!pk.isEmpty()) {
                            throw multiplePk(name, at);
                        }
                        pk.add(col);
                    } else if (peek().isWord("default") || peek().isWord("unique") || peek().isWord("references")
                            || peek().isWord("check") || peek().isWord("generated") || peek().isWord("collate")
                            || peek().isWord("constraint")) {
                        throw TributaryException.notSupported("column constraint " + peek().text().toUpperCase());
                    } else {
                        break;
                    }
                }
                columns.add(new ColumnDef(col, type, colNotNull, false));
                if (colNotNull) {
                    notNull.add(col);
                }
            }
        } while (acceptSymbol(","));
        expectSymbol(")");
        UtilityStatement.SourceClause source = null;
        if (peek().isWord("with")) {
            source = sourceClause();
        } else if (peek().isWord("format")) {
            throw new TributaryException(SqlState.SYNTAX_ERROR,
                    "a FORMAT clause needs a connector: add WITH (connector = '...', ...) before it",
                    peek().position() + 1, null, null, null);
        }
        if (columns.isEmpty()) {
            throw TributaryException.notSupported("a table without columns");
        }
        int[] pkIdx = new int[pk.isEmpty() ? 1 : pk.size()];
        if (pk.isEmpty()) {
            columns.add(new ColumnDef(TableDef.ROW_ID, DataType.BIGINT, true, true));
            pkIdx[0] = columns.size() - 1;
        } else {
            Set<String> seen = new LinkedHashSet<>();
            for (int i = 0; i < pk.size(); i++) {
                String c = pk.get(i);
                int idx = indexOf(columns, c);
                if (idx < 0) {
                    throw new TributaryException(SqlState.UNDEFINED_COLUMN,
                            "column \"" + c + "\" named in key does not exist");
                }
                if (!seen.add(c)) {
                    throw new TributaryException(SqlState.DUPLICATE_COLUMN,
                            "column \"" + c + "\" appears twice in primary key constraint");
                }
                ColumnDef d = columns.get(idx);
                columns.set(idx, new ColumnDef(d.name(), d.type(), true, false));
                pkIdx[i] = idx;
            }
        }
        return new UtilityStatement.CreateTable(name, List.copyOf(columns), pkIdx, ifNotExists, sql, source);
    }

    /**
     * After CREATE TABLE's column list: {@code WITH (name = 'value', ...) [FORMAT f ENCODE e [(name =
     * 'value', ...)]]}. Names are dotted identifiers (e.g. {@code fields.id.kind}), lower-cased;
     * values are string literals (bare numbers are taken as their text).
     */
    private UtilityStatement.SourceClause sourceClause() {
        Token with = next();
        Map<String, String> options = optionList();
        String connector = options.remove("connector");
        if (connector == null) {
            throw new TributaryException(SqlState.SYNTAX_ERROR,
                    "WITH options of CREATE TABLE need connector = '...' naming the table's source",
                    with.position() + 1, null, null, null);
        }
        String format = null;
        String encode = null;
        Map<String, String> formatOptions = Map.of();
        if (peek().isWord("format")) {
            next();
            Token f = next();
            if (!f.isWord("plain")) {
                throw f.kind() == Token.Kind.WORD ? TributaryException.notSupported("FORMAT " + f.text().toUpperCase()
                        + "; only FORMAT PLAIN is supported") : syntaxAt(f);
            }
            expectWord("encode");
            Token e = next();
            if (!e.isWord("csv") && !e.isWord("json")) {
                throw e.kind() == Token.Kind.WORD ? TributaryException.notSupported("ENCODE " + e.text().toUpperCase()
                        + "; the encodings are CSV and JSON") : syntaxAt(e);
            }
            format = "PLAIN";
            encode = e.text().toUpperCase();
            if (peek().isSymbol("(")) {
                formatOptions = optionList();
            }
        }
        return new UtilityStatement.SourceClause(connector.toLowerCase(), options, format, encode, formatOptions);
    }

    /** {@code (name = 'value', ...)}: names lower-cased, each at most once, in the order written. */
    private Map<String, String> optionList() {
        expectSymbol("(");
        Map<String, String> out = new LinkedHashMap<>();
        do {
            Token at = peek();
            StringBuilder name = new StringBuilder(identifier().toLowerCase());
            while (acceptSymbol(".")) {
                name.append('.').append(identifier().toLowerCase());
            }
            expectSymbol("=");
            Token v = next();
            String value;
            if (v.kind() == Token.Kind.STRING || v.kind() == Token.Kind.NUMBER) {
                value = v.text();
            } else if (v.isSymbol("-") && peek().kind() == Token.Kind.NUMBER) {
                value = "-" + next().text();
            } else {
                throw new TributaryException(SqlState.SYNTAX_ERROR, "the value of option \"" + name
                        + "\" must be a string literal, e.g. '" + v.text() + "'", v.position() + 1, null, null, null);
            }
            if (out.put(name.toString(), value) != null) {
                throw new TributaryException(SqlState.SYNTAX_ERROR, "option \"" + name + "\" specified more than once",
                        at.position() + 1, null, null, null);
            }
        } while (acceptSymbol(","));
        expectSymbol(")");
        return out;
    }

    private TributaryException multiplePk(String table, Token at) {
        return new TributaryException(SqlState.INVALID_TABLE_DEFINITION,
                "multiple primary keys for table \"" + table + "\" are not allowed", at.position() + 1, null, null,
                null);
    }

    private static int indexOf(List<ColumnDef> columns, String name) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /** Parses a type name with modifiers. */
    private DataType type() {
        Token t = next();
        if (t.kind() != Token.Kind.WORD) {
            throw syntaxAt(t);
        }
        DataType type = switch (t.text()) {
            case "boolean", "bool" -> DataType.BOOLEAN;
            case "smallint", "int2" -> DataType.SMALLINT;
            case "int", "integer", "int4" -> DataType.INTEGER;
            case "bigint", "int8" -> DataType.BIGINT;
            case "real", "float4" -> DataType.REAL;
            case "float8" -> DataType.DOUBLE;
            case "float" -> {
                if (acceptSymbol("(")) {
                    int p = integer();
                    expectSymbol(")");
                    yield p <= 24 ? DataType.REAL : DataType.DOUBLE;
                }
                yield DataType.DOUBLE;
            }
            case "double" -> {
                expectWord("precision");
                yield DataType.DOUBLE;
            }
            case "numeric", "decimal" -> {
                if (acceptSymbol("(")) {
                    int p = integer();
                    int s = acceptSymbol(",") ? integer() : 0;
                    expectSymbol(")");
                    if (p < 1 || p > 1000) {
                        throw new TributaryException(SqlState.INVALID_PARAMETER_VALUE,
                                "NUMERIC precision " + p + " must be between 1 and 1000", t.position() + 1, null,
                                null, null);
                    }
                    if (s < 0 || s > p) {
                        throw new TributaryException(SqlState.INVALID_PARAMETER_VALUE,
                                "NUMERIC scale " + s + " must be between 0 and precision " + p, t.position() + 1,
                                null, null, null);
                    }
                    yield DataType.numeric(p, s);
                }
                yield DataType.NUMERIC;
            }
            case "varchar" -> varchar();
            case "character", "char" -> {
                if (peek().isWord("varying")) {
                    next();
                    yield varchar();
                }
                throw TributaryException.notSupported("type CHARACTER (fixed length); use VARCHAR or TEXT");
            }
            case "text", "string" -> DataType.TEXT;
            case "date" -> DataType.DATE;
            case "time" -> {
                skipPrecision();
                if (peek().isWord("with")) {
                    throw TributaryException.notSupported("type TIME WITH TIME ZONE");
                }
                acceptWithoutTimeZone();
                yield DataType.TIME;
            }
            case "timestamp" -> {
                skipPrecision();
                if (peek().isWord("with")) {
                    next();
                    expectWord("time");
                    expectWord("zone");
                    yield DataType.TIMESTAMPTZ;
                }
                acceptWithoutTimeZone();
                yield DataType.TIMESTAMP;
            }
            case "timestamptz" -> DataType.TIMESTAMPTZ;
            case "interval" -> DataType.INTERVAL;
            case "bytea" -> DataType.BYTEA;
            case "json", "jsonb", "uuid", "serial", "bigserial", "money", "inet", "point", "xml", "bit", "timetz" ->
                    throw TributaryException.notSupported("type " + t.text().toUpperCase());
            default -> throw new TributaryException(SqlState.UNDEFINED_OBJECT,
                    "type \"" + t.text() + "\" does not exist", t.position() + 1, null, null, null);
        };
        if (peek().isSymbol("[")) {
            throw TributaryException.notSupported("array types");
        }
        return type;
    }

    private DataType varchar() {
        if (acceptSymbol("(")) {
            int n = integer();
            expectSymbol(")");
            if (n < 1) {
                throw new TributaryException(SqlState.INVALID_PARAMETER_VALUE, "length for type varchar must be at least 1");
            }
            return DataType.varchar(n);
        }
        return DataType.VARCHAR;
    }

    private void skipPrecision() {
        if (acceptSymbol("(")) {
            integer();
            expectSymbol(")");
        }
    }

    private void acceptWithoutTimeZone() {
        if (peek().isWord("without")) {
            next();
            expectWord("time");
            expectWord("zone");
        }
    }

    private UtilityStatement drop() {
        next();
        RelationKind kind;
        if (peek().isWord("table")) {
            next();
            kind = RelationKind.TABLE;
        } else if (peek().isWord("materialized")) {
            next();
            expectWord("view");
            kind = RelationKind.MATERIALIZED_VIEW;
        } else {
            throw TributaryException.notSupported("DROP " + peek().text().toUpperCase());
        }
        boolean ifExists = false;
        if (peek().isWord("if")) {
            next();
            expectWord("exists");
            ifExists = true;
        }
        List<String> names = new ArrayList<>();
        do {
            names.add(qualifiedName());
        } while (acceptSymbol(","));
        boolean cascade = false;
        if (peek().isWord("cascade") || peek().isWord("restrict")) {
            cascade = next().isWord("cascade");
        }
        return new UtilityStatement.Drop(names, kind, ifExists, cascade);
    }

    private UtilityStatement show() {
        next();
        Token t = next();
        if (t.isWord("tables")) {
            return new UtilityStatement.ShowTables();
        }
        if (t.isWord("materialized")) {
            expectWord("views");
            return new UtilityStatement.ShowMaterializedViews();
        }
        if (t.isWord("jobs")) {
            return new UtilityStatement.ShowJobs();
        }
        if (t.isWord("columns")) {
            if (!peek().isWord("from") && !peek().isWord("in")) {
                throw syntaxAt(peek());
            }
            next();
            return new UtilityStatement.ShowColumns(qualifiedName());
        }
        if (t.isWord("transaction")) {
            expectWord("isolation");
            expectWord("level");
            return new UtilityStatement.ShowVariable("transaction_isolation");
        }
        if (t.kind() == Token.Kind.WORD || t.kind() == Token.Kind.QUOTED_IDENT) {
            return new UtilityStatement.ShowVariable(t.text().toLowerCase());
        }
        throw syntaxAt(t);
    }

    private UtilityStatement set() {
        next();
        if (peek().isWord("session") || peek().isWord("local")) {
            next();
            if (peek().isWord("characteristics")) {
                skipRest();
                return new UtilityStatement.NoOp("SET");
            }
        }
        if (peek().isWord("transaction")) {
            skipRest();
            return new UtilityStatement.NoOp("SET");
        }
        Token nameTok = next();
        if (!nameTok.isIdentifier()) {
            throw syntaxAt(nameTok);
        }
        String name = nameTok.text().toLowerCase();
        if (name.equals("time") && peek().isWord("zone")) {
            next();
            name = "timezone";
        } else if (!acceptSymbol("=") && !peek().isWord("to")) {
            throw syntaxAt(peek());
        } else if (peek().isWord("to")) {
            next();
        }
        StringBuilder value = new StringBuilder();
        if (peek().isWord("default")) {
            next();
            return new UtilityStatement.SetVariable(name, null);
        }
        do {
            Token v = next();
            if (v.kind() == Token.Kind.END) {
                throw syntaxAt(v);
            }
            if (value.length() > 0) {
                value.append(", ");
            }
            if (v.isSymbol("-") && peek().kind() == Token.Kind.NUMBER) {
                value.append('-').append(next().text());
            } else {
                value.append(v.text());
            }
        } while (acceptSymbol(","));
        return new UtilityStatement.SetVariable(name, value.toString());
    }

    private UtilityStatement reset() {
        next();
        Token t = next();
        if (!t.isIdentifier()) {
            throw syntaxAt(t);
        }
        return new UtilityStatement.ResetVariable(t.text().toLowerCase());
    }

    private UtilityStatement begin() {
        Token first = next();
        if (first.isWord("start")) {
            expectWord("transaction");
        }
        skipRest();
        return new UtilityStatement.Transaction(UtilityStatement.TransactionVerb.BEGIN);
    }

    private UtilityStatement endTransaction(UtilityStatement.TransactionVerb verb) {
        next();
        if (peek().isWord("prepared")) {
            throw TributaryException.notSupported("two-phase commit");
        }
        skipRest();
        return new UtilityStatement.Transaction(verb);
    }

    private UtilityStatement copy() {
        next();
        if (peek().isSymbol("(")) {
            throw TributaryException.notSupported("COPY (query)");
        }
        boolean systemTable = peek().isIdentifier() && peek().text().equals(SystemTables.SCHEMA)
                && tokens.get(pos + 1).isSymbol(".");
        if (systemTable) {
            next();
            next();
        }
        String table = systemTable ? identifier() : qualifiedName();
        List<String> columns = peek().isSymbol("(") ? identifierList() : List.of();
        if (peek().isWord("to")) {
            throw TributaryException.notSupported("COPY TO; use SELECT");
        }
        expectWord("from");
        if (!peek().isWord("stdin")) {
            throw TributaryException.notSupported("COPY FROM a server file; use COPY FROM STDIN (psql's \\copy)");
        }
        next();
        boolean csv = false;
        Character delimiter = null;
        String nullString = null;
        boolean header = false;
        char quote = '"';
        Character escape = null;
        boolean parenthesized = false;
        if (peek().isWord("with")) {
            next();
        }
        if (acceptSymbol("(")) {
            parenthesized = true;
        }
        while (peek().kind() == Token.Kind.WORD) {
            Token opt = next();
            switch (opt.text()) {
                case "format" -> {
                    Token f = next();
                    if (f.isWord("csv") || f.kind() == Token.Kind.STRING && f.text().equalsIgnoreCase("csv")) {
                        csv = true;
                    } else if (!(f.isWord("text") || f.kind() == Token.Kind.STRING && f.text().equalsIgnoreCase("text"))) {
                        throw TributaryException.notSupported("COPY format " + f.text());
                    }
                }
                case "csv" -> csv = true;
                case "binary" -> throw TributaryException.notSupported("COPY binary format");
                case "header" -> {
                    header = true;
                    if (peek().isWord("false") || peek().isWord("off")) {
                        next();
                        header = false;
                    }
                }
                case "delimiter" -> delimiter = singleChar(next(), "COPY delimiter");
                case "null" -> nullString = stringValue(next());
                case "quote" -> quote = singleChar(next(), "COPY quote");
                case "escape" -> escape = singleChar(next(), "COPY escape");
                case "encoding" -> {
                    String enc = stringValue(next());
                    if (!enc.equalsIgnoreCase("utf8") && !enc.equalsIgnoreCase("utf-8")) {
                        throw TributaryException.notSupported("COPY encoding " + enc);
                    }
                }
                default -> throw new TributaryException(SqlState.SYNTAX_ERROR,
                        "option \"" + opt.text() + "\" not recognized", opt.position() + 1, null, null, null);
            }
            if (peek().isWord("true") || peek().isWord("on")) {
                next();
            }
            if (parenthesized) {
                acceptSymbol(",");
            }
        }
        if (parenthesized) {
            expectSymbol(")");
        }
        UtilityStatement.CopyFormat format = new UtilityStatement.CopyFormat(csv,
                delimiter != null ? delimiter : csv ? ',' : '\t',
                nullString != null ? nullString : csv ? "" : "\\N", header, quote,
                escape != null ? escape : quote);
        return new UtilityStatement.CopyFrom(table, systemTable, columns, format);
    }

    private static char singleChar(Token t, String what) {
        String s = stringValue(t);
        if (s.length() != 1) {
            throw new TributaryException(SqlState.FEATURE_NOT_SUPPORTED, what + " must be a single one-byte character");
        }
        return s.charAt(0);
    }

    private static String stringValue(Token t) {
        if (t.kind() == Token.Kind.END) {
            throw syntaxAt(t, "");
        }
        return t.text();
    }

    private void skipRest() {
        while (peek().kind() != Token.Kind.END && !peek().isSymbol(";")) {
            next();
        }
    }

    private List<String> identifierList() {
        expectSymbol("(");
        List<String> out = new ArrayList<>();
        do {
            out.add(identifier());
        } while (acceptSymbol(","));
        expectSymbol(")");
        return out;
    }

    /**
     * A possibly schema-qualified name; only {@code public} (and {@code dev.public}) hold user
     * relations, and system tables are only read with SELECT.
     */
    private String qualifiedName() {
        String name = identifier();
        while (acceptSymbol(".")) {
            if (name.equals(SystemTables.SCHEMA)) {
                throw new TributaryException(SqlState.WRONG_OBJECT_TYPE, "schema \"" + name
                        + "\" holds system tables, which can only be read with SELECT");
            }
            if (!name.equals("public") && !name.equals("dev")) {
                throw new TributaryException(SqlState.UNDEFINED_OBJECT, "schema \"" + name + "\" does not exist");
            }
            name = identifier();
        }
        return name;
    }

    private String identifier() {
        Token t = next();
        if (!t.isIdentifier()) {
            throw syntaxAt(t);
        }
        return t.text();
    }

    private int integer() {
        Token t = next();
        if (t.kind() != Token.Kind.NUMBER || t.text().contains(".")) {
            throw syntaxAt(t);
        }
        return Integer.parseInt(t.text());
    }

    private Token peek() {
        return tokens.get(pos);
    }

    private Token next() {
        Token t = tokens.get(pos);
        if (t.kind() != Token.Kind.END) {
            pos++;
        }
        return t;
    }

    private boolean acceptSymbol(String s) {
        if (peek().isSymbol(s)) {
            pos++;
            return true;
        }
        return false;
    }

    private void expectSymbol(String s) {
        if (!acceptSymbol(s)) {
            throw syntaxAt(peek());
        }
    }

    private void expectWord(String w) {
        if (!peek().isWord(w)) {
            throw syntaxAt(peek());
        }
        pos++;
    }

    private TributaryException syntaxAt(Token t) {
        return syntaxAt(t, sql);
    }

    private static TributaryException syntaxAt(Token t, String sql) {
        String near = t.kind() == Token.Kind.END ? "end of input" : "\"" + t.text() + "\"";
        return new TributaryException(SqlState.SYNTAX_ERROR, "syntax error at or near " + near,
                t.position() + 1, null, null, null);
    }
}

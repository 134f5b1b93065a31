package io.tributary.sql;

import io.tributary.catalog.CheckDef;
import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.ForeignKeyDef;
import io.tributary.catalog.IndexDef;
import io.tributary.catalog.RelationKind;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import io.tributary.common.types.TypeKind;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code CREATE TABLE} (columns, NOT NULL, CHECK, the primary key, and a connector clause read by
 * {@link SourceDdlParser}) and {@code DROP TABLE | MATERIALIZED VIEW}. Called by {@link
 * UtilityParser} on the parsing thread; stateless.
 */
final class TableDdlParser {
    private TableDdlParser() {}

    /**
     * After CREATE: {@code {TABLE | SOURCE} [IF NOT EXISTS] name (column type [NOT NULL | NULL | PRIMARY KEY]
     * ..., [PRIMARY KEY (columns)], [WATERMARK FOR column AS column - INTERVAL '...']) [WITH (...)
     * [FORMAT ... ENCODE ...]]}. A table without a primary
     * key gets the hidden {@link TableDef#ROW_ID} column as its key; key columns become NOT NULL.
     *
     * @throws TributaryException 42601 for bad syntax (positions point at the token); 0A000 for
     *     constraints other than NOT NULL and PRIMARY KEY, CREATE TABLE AS and tables without
     *     columns; 42701 for a repeated or reserved column name; 42P16 for a second primary key;
     *     42703 for a key column that does not exist; for a watermark see {@link WatermarkClause}
     */
    /**
     * At {@code CONSTRAINT name}: consumes both when a PRIMARY KEY follows and the name is the one
     * the key's constraint has here ({@code <table>_pkey}, as PostgreSQL names it by default).
     *
     * @throws TributaryException 0A000 naming the constraint's kind otherwise
     */
    private static void namedPrimaryKey(TokenCursor in, String table) {
        in.next();
        Token constraint = in.next();
        Token kind = in.peek();
        String unqualified = table.substring(table.lastIndexOf('.') + 1);
        if (!kind.isWord("primary")) {
            throw TributaryException.notSupported("table constraint " + constraintKind(kind));
        }
        if (!constraint.text().equals(unqualified + "_pkey")) {
            throw TributaryException.notSupported(
                    "a primary key constraint named other than \"" + unqualified + "_pkey\"");
        }
    }

    private static String constraintKind(Token kind) {
        String word = kind.text().toUpperCase(java.util.Locale.ROOT);
        return word.equals("FOREIGN") ? "FOREIGN KEY" : word;
    }

    static UtilityStatement createTable(TokenCursor in) {
        RelationKind kind = RelationKind.TABLE;
        if (in.peek().isWord("source")) {
            in.next();
            kind = RelationKind.SOURCE;
        } else {
            in.expectWord("table");
        }
        boolean ifNotExists = in.acceptIfNotExists();
        String name = in.creationName();
        if (kind == RelationKind.TABLE && in.peek().isWord("as")) {
            return createTableAs(in, name, ifNotExists);
        }
        in.expectSymbol("(");
        List<ColumnDef> columns = new ArrayList<>();
        List<String> pk = new ArrayList<>();
        WatermarkClause watermark = null;
        List<CheckDef> checks = new ArrayList<>();
        List<IndexDef> uniques = new ArrayList<>();
        List<ForeignKeyDef> foreignKeys = new ArrayList<>();
        do {
            if (in.peek().isWord("foreign")
                    || in.peek().isWord("constraint") && in.peekThird().isWord("foreign")) {
                foreignKeys.add(foreignKey(in));
                continue;
            }
            if (in.peek().isWord("check")
                    || in.peek().isWord("constraint") && in.peekThird().isWord("check")) {
                checks.add(check(in));
                continue;
            }
            if (in.peek().isWord("unique")
                    || in.peek().isWord("constraint") && in.peekThird().isWord("unique")) {
                String constraint = null;
                if (in.peek().isWord("constraint")) {
                    in.next();
                    constraint = in.identifier();
                }
                in.expectWord("unique");
                if (in.peek().isWord("nulls")) {
                    throw TributaryException.notSupported("UNIQUE NULLS [NOT] DISTINCT");
                }
                uniques.add(unique(in, constraint, in.identifierList()));
                continue;
            }
            if (in.peek().isWord("constraint")) {
                namedPrimaryKey(in, name);
            }
            if (in.peek().isWord("primary")) {
                Token at = in.next();
                in.expectWord("key");
                if (!pk.isEmpty()) {
                    throw multiplePk(name, at);
                }
                pk.addAll(in.identifierList());
            } else if (in.peek().isWord("watermark") && in.peekSecond().isWord("for")) {
                if (watermark != null) {
                    throw TokenCursor.errorAt(
                            SqlState.SYNTAX_ERROR, "multiple watermarks for table \"" + name + "\"", in.peek());
                }
                watermark = WatermarkClause.parse(in);
            } else if (in.peek().isWord("foreign")
                    || in.peek().isWord("check")
                    || in.peek().isWord("exclude")) {
                throw TributaryException.notSupported("table constraint " + constraintKind(in.peek()));
            } else {
                columns.add(column(in, name, columns, pk, checks, uniques, foreignKeys));
            }
        } while (in.acceptSymbol(","));
        in.expectSymbol(")");
        UtilityStatement.SourceClause source = null;
        if (in.peek().isWord("with")) {
            source = SourceDdlParser.sourceClause(in);
        } else if (in.peek().isWord("format")) {
            throw TokenCursor.errorAt(
                    SqlState.SYNTAX_ERROR,
                    "a FORMAT clause needs a connector: add WITH (connector = '...', ...) before it",
                    in.peek());
        }
        if (columns.isEmpty()) {
            throw TributaryException.notSupported("a table without columns");
        }
        if (source != null && !uniques.isEmpty()) {
            throw TributaryException.notSupported("UNIQUE constraints on a table fed by a connector");
        }
        if (source != null && !checks.isEmpty()) {
            // a connector's rows are not statements that could fail; skipping them is not built
            throw TributaryException.notSupported("CHECK constraints on a table fed by a connector");
        }
        if (source != null && !foreignKeys.isEmpty()) {
            // a connector's rows are not statements that could fail or wait for their parents
            throw TributaryException.notSupported("FOREIGN KEY constraints on a table fed by a connector");
        }
        if (kind == RelationKind.SOURCE) {
            checkSource(in, source, pk, watermark);
        }
        int[] pkIdx = primaryKey(columns, pk);
        return new UtilityStatement.CreateTable(
                name,
                List.copyOf(columns),
                pkIdx,
                ifNotExists,
                in.sql(),
                source,
                watermark == null ? null : watermark.resolve(columns),
                List.copyOf(checks),
                kind,
                List.copyOf(uniques),
                List.copyOf(foreignKeys));
    }

    /** At {@code [CONSTRAINT name] FOREIGN KEY (columns) REFERENCES ...}: the table constraint. */
    static ForeignKeyDef foreignKey(TokenCursor in) {
        String constraint = null;
        if (in.peek().isWord("constraint")) {
            in.next();
            constraint = in.identifier();
        }
        in.expectWord("foreign");
        in.expectWord("key");
        return ForeignKeyParser.references(in, constraint, in.identifierList());
    }

    /**
     * After {@code [CONSTRAINT c] UNIQUE [(columns)]}: the constraint, unnamed when {@code
     * constraint} is null; its options are 0A000.
     */
    static IndexDef unique(TokenCursor in, String constraint, List<String> columns) {
        if (in.peek().isWord("nulls")) {
            throw TributaryException.notSupported("UNIQUE NULLS [NOT] DISTINCT");
        }
        for (String option : List.of("include", "with", "using", "deferrable", "initially", "not")) {
            if (in.peek().isWord(option)
                    && !(option.equals("not") && in.peekSecond().isWord("null"))) {
                throw TributaryException.notSupported(
                        "UNIQUE constraint option " + option.toUpperCase(java.util.Locale.ROOT));
            }
        }
        return new IndexDef(constraint, 0, columns, true, true);
    }

    /**
     * What CREATE SOURCE refuses that CREATE TABLE takes: a source without a connector, and a primary
     * key or watermark, which a relation whose rows are not stored has no use for yet (a key would
     * need the stored rows to apply updates by; a watermark on a source is not built).
     *
     * @throws TributaryException 42601 without WITH (connector = ...), 0A000 for a key or watermark
     */
    private static void checkSource(
            TokenCursor in, UtilityStatement.SourceClause source, List<String> pk, WatermarkClause watermark) {
        if (source == null) {
            throw TokenCursor.errorAt(
                    SqlState.SYNTAX_ERROR, "a source needs a connector: add WITH (connector = '...', ...)", in.peek());
        }
        if (source.connector().equals("postgres-cdc")) {
            // its updates and deletes are applied by primary key to stored rows
            throw TributaryException.notSupported("CREATE SOURCE with connector postgres-cdc; use CREATE TABLE");
        }
        if (!pk.isEmpty()) {
            throw TributaryException.notSupported("a primary key on a source (its rows are not stored)");
        }
        if (watermark != null) {
            throw TributaryException.notSupported("WATERMARK on a source");
        }
    }

    /**
     * At {@code [CONSTRAINT name] CHECK}: the constraint, unnamed unless it was named, for the DDL
     * to plan and name. A column constraint is read alike: PostgreSQL names both by the columns
     * the condition reads, not by where it was written.
     *
     * @throws TributaryException 0A000 for NO INHERIT and NOT VALID
     */
    private static CheckDef check(TokenCursor in) {
        String constraint = null;
        if (in.peek().isWord("constraint")) {
            in.next();
            constraint = in.identifier();
        }
        return check(in, constraint);
    }

    /**
     * At {@code CHECK}, after the constraint's name if it has one ({@code constraint}, else null):
     * the constraint, for CREATE TABLE and ALTER TABLE ... ADD alike.
     *
     * @throws TributaryException 0A000 for NO INHERIT and NOT VALID
     */
    static CheckDef check(TokenCursor in, String constraint) {
        in.expectWord("check");
        String expression = in.parenthesizedText();
        if (in.peek().isWord("no") && in.peekSecond().isWord("inherit")) {
            throw TributaryException.notSupported("CHECK constraints with NO INHERIT");
        }
        if (in.peek().isWord("not") && in.peekSecond().isWord("valid")) {
            throw TributaryException.notSupported("CHECK constraints marked NOT VALID");
        }
        return new CheckDef(constraint, expression, null, null, List.of());
    }

    /** After {@code CREATE TABLE name}: {@code AS query [WITH [NO] DATA]}. */
    private static UtilityStatement createTableAs(TokenCursor in, String name, boolean ifNotExists) {
        Token as = in.next();
        int start = in.peek().position();
        int end = in.sql().length();
        boolean withData = true;
        Token t;
        while (!(t = in.next()).kind().equals(Token.Kind.END)) {
            if (t.isWord("with")
                    && (in.peek().isWord("data")
                            || in.peek().isWord("no") && in.peekSecond().isWord("data"))) {
                end = t.position();
                withData = !in.peek().isWord("no");
                in.skipAll();
                break;
            }
            if (t.isSymbol(";")) {
                end = t.position();
                in.skipAll();
                break;
            }
        }
        String query = in.sql().substring(start, end).trim();
        if (query.isEmpty()) {
            throw TokenCursor.syntaxAt(as);
        }
        return new UtilityStatement.CreateTableAs(name, ifNotExists, query, withData, in.sql());
    }

    /**
     * The column definition of {@code ALTER TABLE table ADD COLUMN}: as in CREATE TABLE, without
     * the options that need more than a column (a key, a CHECK, a sequence, a generated value).
     *
     * @throws TributaryException 0A000 for PRIMARY KEY, CHECK, SERIAL, identity and generated columns
     */
    static ColumnDef addedColumn(TokenCursor in, String table) {
        List<String> pk = new ArrayList<>();
        List<CheckDef> checks = new ArrayList<>();
        ColumnDef column = column(in, table, List.of(), pk, checks, null, null);
        if (!pk.isEmpty() || !checks.isEmpty()) {
            throw TributaryException.notSupported(
                    "ALTER TABLE ... ADD COLUMN with " + (pk.isEmpty() ? "a CHECK" : "a PRIMARY KEY") + " constraint");
        }
        if (column.identity() != null || column.generated() != null) {
            throw TributaryException.notSupported("ALTER TABLE ... ADD COLUMN of a "
                    + (column.generated() != null ? "generated" : "SERIAL or identity") + " column");
        }
        return column;
    }

    /**
     * One column definition; a column-level PRIMARY KEY is added to {@code pk}, a CHECK to {@code
     * checks}, a UNIQUE to {@code uniques} (null: UNIQUE is 0A000 here), a REFERENCES to {@code
     * foreignKeys} (null: REFERENCES is 0A000 here).
     */
    private static ColumnDef column(
            TokenCursor in,
            String table,
            List<ColumnDef> columns,
            List<String> pk,
            List<CheckDef> checks,
            List<IndexDef> uniques,
            List<ForeignKeyDef> foreignKeys) {
        Token colTok = in.peek();
        String col = in.identifier();
        for (ColumnDef c : columns) {
            if (c.name().equals(col)) {
                throw TokenCursor.errorAt(
                        SqlState.DUPLICATE_COLUMN, "column \"" + col + "\" specified more than once", colTok);
            }
        }
        if (col.equals(TableDef.ROW_ID)) {
            throw new TributaryException(
                    SqlState.DUPLICATE_COLUMN, "column name \"" + col + "\" is reserved for the hidden row id");
        }
        ColumnDef.Identity identity = null;
        DataType type = serialType(in.peek());
        if (type != null) {
            in.next();
            identity = ColumnDef.Identity.SERIAL;
        } else {
            type = ColumnTypeParser.type(in);
        }
        boolean notNull = identity != null;
        String defaultExpr = null;
        ColumnDef.Generated generated = null;
        while (true) {
            Token at = in.peek();
            if (at.isWord("not")) {
                in.next();
                in.expectWord("null");
                notNull = true;
            } else if (at.isWord("null")) {
                in.next();
            } else if (at.isWord("primary")) {
                in.next();
                in.expectWord("key");
                if (!pk.isEmpty()) {
                    throw multiplePk(table, at);
                }
                pk.add(col);
            } else if (at.isWord("default")) {
                in.next();
                if (defaultExpr != null) {
                    throw TokenCursor.errorAt(
                            SqlState.SYNTAX_ERROR,
                            "multiple default values specified for column \"" + col + "\" of table \"" + table + "\"",
                            at);
                }
                defaultExpr = in.columnDefaultText();
            } else if (at.isWord("check")
                    || at.isWord("constraint") && in.peekThird().isWord("check")) {
                checks.add(check(in));
            } else if (uniques != null
                    && (at.isWord("unique")
                            || at.isWord("constraint") && in.peekThird().isWord("unique"))) {
                String constraint = null;
                if (at.isWord("constraint")) {
                    in.next();
                    constraint = in.identifier();
                }
                in.expectWord("unique");
                uniques.add(unique(in, constraint, List.of(col)));
            } else if (foreignKeys != null
                    && (at.isWord("references")
                            || at.isWord("constraint") && in.peekThird().isWord("references"))) {
                String constraint = null;
                if (at.isWord("constraint")) {
                    in.next();
                    constraint = in.identifier();
                }
                foreignKeys.add(ForeignKeyParser.references(in, constraint, List.of(col)));
            } else if (at.isWord("generated")
                    && in.peekSecond().isWord("always")
                    && in.peekThird().isWord("as")
                    && in.peekAhead(3).isSymbol("(")) {
                generated = storedProctime(in, col, type, generated);
            } else if (at.isWord("generated")) {
                identity = identity(in, col, table, identity);
                notNull = true;
            } else if (at.isWord("as")) {
                generated = proctime(in, col, type, generated);
            } else if (at.isWord("unique")
                    || at.isWord("references")
                    || at.isWord("check")
                    || at.isWord("collate")
                    || at.isWord("constraint")) {
                throw TributaryException.notSupported(
                        "column constraint " + at.text().toUpperCase());
            } else {
                break;
            }
        }
        if (identity != null && defaultExpr != null) {
            throw new TributaryException(
                    SqlState.SYNTAX_ERROR,
                    "both default and identity specified for column \"" + col + "\" of table \"" + table + "\"");
        }
        if (identity != null && !isInteger(type)) {
            throw new TributaryException(
                    SqlState.INVALID_PARAMETER_VALUE, "identity column type must be smallint, integer, or bigint");
        }
        if (generated != null && (identity != null || defaultExpr != null)) {
            throw new TributaryException(
                    SqlState.SYNTAX_ERROR,
                    "both " + (identity != null ? "identity" : "default") + " and generation expression specified"
                            + " for column \"" + col + "\" of table \"" + table + "\"");
        }
        return new ColumnDef(col, type, notNull, false, defaultExpr, identity, generated);
    }

    /**
     * At AS: RisingWave's processing-time column {@code AS PROCTIME()}, the only generated column
     * Tributary computes.
     *
     * @throws TributaryException 0A000 for any other generation expression, 42804 for a column not of
     *     type timestamptz, 42601 for a second generation expression
     */
    private static ColumnDef.Generated proctime(TokenCursor in, String col, DataType type, ColumnDef.Generated had) {
        Token at = in.next();
        return proctimeCall(in, col, type, had, at);
    }

    /**
     * At GENERATED ALWAYS AS (: PostgreSQL's spelling of a stored generated column, which is how
     * pg_dump writes a PROCTIME() column ({@code GENERATED ALWAYS AS (proctime()) STORED}), so a dump
     * restores; any other expression is 0A000 as for {@code AS}.
     */
    private static ColumnDef.Generated storedProctime(
            TokenCursor in, String col, DataType type, ColumnDef.Generated had) {
        Token at = in.next();
        in.expectWord("always");
        in.expectWord("as");
        in.expectSymbol("(");
        ColumnDef.Generated generated = proctimeCall(in, col, type, had, at);
        in.expectSymbol(")");
        in.expectWord("stored");
        return generated;
    }

    /** At the generation expression, which must be {@code PROCTIME()}; {@code at} is the clause's first token. */
    private static ColumnDef.Generated proctimeCall(
            TokenCursor in, String col, DataType type, ColumnDef.Generated had, Token at) {
        if (!in.peek().isWord("proctime") || !in.peekSecond().isSymbol("(")) {
            throw TributaryException.notSupported("a generation expression other than PROCTIME()");
        }
        in.next();
        in.expectSymbol("(");
        in.expectSymbol(")");
        if (had != null) {
            throw TokenCursor.errorAt(
                    SqlState.SYNTAX_ERROR, "multiple generation clauses specified for column \"" + col + "\"", at);
        }
        if (type.kind() != TypeKind.TIMESTAMPTZ) {
            throw new TributaryException(
                    SqlState.DATATYPE_MISMATCH,
                    "column \"" + col + "\" is of type " + type.sqlName()
                            + " but PROCTIME() is of type timestamp with time zone");
        }
        return ColumnDef.Generated.PROCTIME;
    }

    private static boolean isInteger(DataType type) {
        return type.kind() == TypeKind.SMALLINT || type.kind() == TypeKind.INTEGER || type.kind() == TypeKind.BIGINT;
    }

    /** The column type of {@code SMALLSERIAL}, {@code SERIAL} or {@code BIGSERIAL}, else null. */
    private static DataType serialType(Token t) {
        if (t.kind() != Token.Kind.WORD) {
            return null;
        }
        return switch (t.text()) {
            case "smallserial", "serial2" -> DataType.SMALLINT;
            case "serial", "serial4" -> DataType.INTEGER;
            case "bigserial", "serial8" -> DataType.BIGINT;
            default -> null;
        };
    }

    /**
     * At GENERATED: {@code GENERATED {ALWAYS | BY DEFAULT} AS IDENTITY}.
     *
     * @throws TributaryException 0A000 for generated (computed) columns and sequence options;
     *     42601 for a second identity
     */
    private static ColumnDef.Identity identity(TokenCursor in, String col, String table, ColumnDef.Identity had) {
        Token at = in.next();
        ColumnDef.Identity identity;
        if (in.peek().isWord("always")) {
            in.next();
            identity = ColumnDef.Identity.ALWAYS;
        } else {
            in.expectWord("by");
            in.expectWord("default");
            identity = ColumnDef.Identity.BY_DEFAULT;
        }
        in.expectWord("as");
        if (in.peek().isSymbol("(")) {
            throw TributaryException.notSupported("generated columns (GENERATED ... AS (expression))");
        }
        in.expectWord("identity");
        if (in.peek().isSymbol("(")) {
            throw TributaryException.notSupported("sequence options of an identity column");
        }
        if (had != null) {
            throw TokenCursor.errorAt(
                    SqlState.SYNTAX_ERROR,
                    "multiple identity specifications for column \"" + col + "\" of table \"" + table + "\"",
                    at);
        }
        return identity;
    }

    /**
     * The key's column indexes; key columns become NOT NULL. Without a key, appends the hidden row
     * id column and keys on it.
     */
    private static int[] primaryKey(List<ColumnDef> columns, List<String> pk) {
        if (pk.isEmpty()) {
            columns.add(new ColumnDef(TableDef.ROW_ID, DataType.BIGINT, true, true));
            return new int[] {columns.size() - 1};
        }
        int[] pkIdx = new int[pk.size()];
        Set<String> seen = new LinkedHashSet<>();
        for (int i = 0; i < pk.size(); i++) {
            String c = pk.get(i);
            int idx = indexOf(columns, c);
            if (idx < 0) {
                throw new TributaryException(
                        SqlState.UNDEFINED_COLUMN, "column \"" + c + "\" named in key does not exist");
            }
            if (!seen.add(c)) {
                throw new TributaryException(
                        SqlState.DUPLICATE_COLUMN, "column \"" + c + "\" appears twice in primary key constraint");
            }
            ColumnDef d = columns.get(idx);
            if (d.proctime()) {
                throw TributaryException.notSupported("a PROCTIME() column in the primary key");
            }
            columns.set(idx, d.withNotNull(true));
            pkIdx[i] = idx;
        }
        return pkIdx;
    }

    private static TributaryException multiplePk(String table, Token at) {
        return TokenCursor.errorAt(
                SqlState.INVALID_TABLE_DEFINITION,
                "multiple primary keys for table \"" + table + "\" are not allowed",
                at);
    }

    private static int indexOf(List<ColumnDef> columns, String name) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * At DROP: {@code DROP {TABLE | MATERIALIZED VIEW | SOURCE} [IF EXISTS] name [, ...] [CASCADE | RESTRICT]}.
     *
     * @throws TributaryException 0A000 for dropping any other kind of object
     */
    static UtilityStatement drop(TokenCursor in) {
        in.next();
        if (in.peek().isWord("sink")) {
            return SinkDdlParser.dropSink(in);
        }
        if (in.peek().isWord("database")) {
            return DatabaseDdlParser.drop(in);
        }
        if (in.peek().isWord("schema")) {
            return SchemaDdlParser.drop(in);
        }
        if (in.peek().isWord("sequence")) {
            return SequenceDdlParser.drop(in);
        }
        if (in.peek().isWord("index")) {
            return IndexDdlParser.drop(in);
        }
        RelationKind kind;
        if (in.peek().isWord("table")) {
            in.next();
            kind = RelationKind.TABLE;
        } else if (in.peek().isWord("materialized")) {
            in.next();
            in.expectWord("view");
            kind = RelationKind.MATERIALIZED_VIEW;
        } else if (in.peek().isWord("source")) {
            in.next();
            kind = RelationKind.SOURCE;
        } else if (in.peek().isWord("view")) {
            in.next();
            kind = null;
        } else {
            throw TributaryException.notSupported("DROP " + in.peek().text().toUpperCase());
        }
        boolean ifExists = in.acceptIfExists();
        List<String> names = new ArrayList<>();
        do {
            names.add(in.qualifiedName());
        } while (in.acceptSymbol(","));
        boolean cascade = in.acceptCascade();
        return kind == null
                ? new UtilityStatement.DropView(names, ifExists, cascade)
                : new UtilityStatement.Drop(names, kind, ifExists, cascade);
    }

    /**
     * At TRUNCATE: {@code TRUNCATE [TABLE] [ONLY] name [*] [, ...] [CONTINUE IDENTITY] [CASCADE |
     * RESTRICT]}.
     *
     * @throws TributaryException 0A000 for RESTART IDENTITY
     */
    static UtilityStatement truncate(TokenCursor in) {
        in.next();
        List<String> names = tableNames(in);
        if (in.peek().isWord("restart")) {
            throw TributaryException.notSupported("TRUNCATE ... RESTART IDENTITY");
        }
        if (in.peek().isWord("continue")) {
            in.next();
            in.expectWord("identity");
        }
        boolean cascade = in.peek().isWord("cascade");
        if (cascade || in.peek().isWord("restrict")) {
            in.next();
        }
        return new UtilityStatement.Truncate(names, cascade);
    }

    /**
     * TRUNCATE's and LOCK's {@code [TABLE] [ONLY] name [*] [, ...]}, after the keyword: the names.
     * ONLY and {@code *} are read and ignored, as there is no table inheritance.
     */
    private static List<String> tableNames(TokenCursor in) {
        if (in.peek().isWord("table")) {
            in.next();
        }
        List<String> names = new ArrayList<>();
        do {
            if (in.peek().isWord("only")) {
                in.next();
            }
            names.add(in.qualifiedName());
            in.acceptSymbol("*");
        } while (in.acceptSymbol(","));
        return names;
    }

    /** {@code LOCK [TABLE] [ONLY] name [*] [, ...] [IN lock_mode MODE] [NOWAIT]}, at LOCK. */
    static UtilityStatement lock(TokenCursor in) {
        in.next();
        List<String> names = tableNames(in);
        if (in.peek().isWord("in")) {
            in.next();
            // ACCESS SHARE, ROW SHARE, ROW EXCLUSIVE, SHARE UPDATE EXCLUSIVE, SHARE, SHARE ROW EXCLUSIVE, EXCLUSIVE,
            // ACCESS EXCLUSIVE
            while (!in.atEnd() && !in.peek().isWord("mode")) {
                Token word = in.next();
                if (!List.of("access", "row", "share", "update", "exclusive").contains(word.text())) {
                    throw TokenCursor.syntaxAt(word);
                }
            }
            in.expectWord("mode");
        }
        if (in.peek().isWord("nowait")) {
            in.next();
        }
        return new UtilityStatement.Lock(names);
    }
}

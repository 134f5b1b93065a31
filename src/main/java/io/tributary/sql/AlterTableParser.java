package io.tributary.sql;

import io.tributary.common.TributaryException;
import java.util.List;

/**
 * The ALTER TABLE actions, read after the table's name: those pg_dump writes after a table's rows
 * ({@code ADD CONSTRAINT ...}), {@code DROP CONSTRAINT}, and the column actions migration tools
 * issue ({@code ADD COLUMN}, {@code DROP COLUMN}, {@code RENAME}). A primary key and CHECK are the
 * supported constraints; others are 0A000 naming their kind. Called by {@link SourceDdlParser#alterTable}; stateless.
 */
final class AlterTableParser {
    private AlterTableParser() {}

    /**
     * After {@code ALTER TABLE name}, at {@code ADD}: {@code ADD [CONSTRAINT c] PRIMARY KEY (cols)}
     * or {@code ADD [CONSTRAINT c] CHECK (condition)}.
     *
     * Any other word after ADD begins a column definition ({@code ADD [COLUMN] ...}).
     *
     * or {@code ADD [CONSTRAINT c] UNIQUE (cols)}.
     *
     * @throws TributaryException 0A000 for EXCLUDE
     */
    static UtilityStatement add(TokenCursor in, String table, boolean ifExists) {
        in.expectWord("add");
        if (in.peek().isWord("column") || !startsConstraint(in.peek())) {
            return addColumn(in, table, ifExists);
        }
        String constraint = null;
        if (in.peek().isWord("constraint")) {
            in.next();
            constraint = in.identifier();
        }
        if (in.peek().isWord("check")) {
            return end(in, new UtilityStatement.AddCheck(table, TableDdlParser.check(in, constraint)));
        }
        if (in.peek().isWord("unique")) {
            in.next();
            return end(
                    in,
                    new UtilityStatement.AddUnique(
                            table,
                            constraint,
                            TableDdlParser.unique(in, constraint, in.identifierList())
                                    .columns()));
        }
        if (in.peek().isWord("foreign")) {
            in.next();
            in.expectWord("key");
            return end(
                    in,
                    new UtilityStatement.AddForeignKey(
                            table, ForeignKeyParser.references(in, constraint, in.identifierList())));
        }
        if (!in.peek().isWord("primary")) {
            String kind = in.peek().isWord("foreign")
                    ? "FOREIGN KEY"
                    : in.peek().text().toUpperCase(java.util.Locale.ROOT);
            throw TributaryException.notSupported(
                    "ALTER TABLE ... ADD CONSTRAINT ... " + kind + " (only PRIMARY KEY, UNIQUE and CHECK constraints)");
        }
        in.next();
        in.expectWord("key");
        List<String> columns = in.identifierList();
        if (!in.atEnd()) {
            throw TributaryException.notSupported(
                    "options of an added PRIMARY KEY (" + in.peek().text() + " ...)");
        }
        return new UtilityStatement.AddPrimaryKey(table, constraint, columns);
    }

    /**
     * After {@code ALTER TABLE name}, at {@code DROP}: {@code DROP CONSTRAINT [IF EXISTS] c [RESTRICT
     * | CASCADE]} (nothing depends on a CHECK constraint, so both drop only it), or else {@code DROP
     * [COLUMN] [IF EXISTS] c [RESTRICT | CASCADE]}.
     */
    static UtilityStatement drop(TokenCursor in, String table, boolean tableIfExists) {
        in.expectWord("drop");
        if (!in.peek().isWord("constraint")) {
            return dropColumn(in, table, tableIfExists);
        }
        in.next();
        boolean ifExists = in.peek().isWord("if") && in.peekSecond().isWord("exists");
        if (ifExists) {
            in.next();
            in.next();
        }
        String name = in.identifier();
        if (in.peek().isWord("restrict") || in.peek().isWord("cascade")) {
            in.next();
        }
        return end(in, new UtilityStatement.DropConstraint(table, name, ifExists));
    }

    /** Whether {@code t}, after ADD, begins a table constraint rather than a column definition. */
    private static boolean startsConstraint(Token t) {
        return List.of("constraint", "check", "primary", "unique", "foreign", "exclude").stream()
                .anyMatch(t::isWord);
    }

    /** At a column definition after {@code ADD}: {@code [COLUMN] [IF NOT EXISTS] c type [options]}. */
    private static UtilityStatement addColumn(TokenCursor in, String table, boolean ifExists) {
        if (in.peek().isWord("column")) {
            in.next();
        }
        boolean ifNotExists = in.peek().isWord("if") && in.peekSecond().isWord("not");
        if (ifNotExists) {
            in.next();
            in.next();
            in.expectWord("exists");
        }
        return end(
                in,
                new UtilityStatement.AddColumn(table, ifExists, TableDdlParser.addedColumn(in, table), ifNotExists));
    }

    /** At the column after {@code DROP}: {@code [COLUMN] [IF EXISTS] c [RESTRICT | CASCADE]}. */
    private static UtilityStatement dropColumn(TokenCursor in, String table, boolean tableIfExists) {
        if (in.peek().isWord("column")) {
            in.next();
        }
        boolean ifExists = in.peek().isWord("if") && in.peekSecond().isWord("exists");
        if (ifExists) {
            in.next();
            in.next();
        }
        String column = in.identifier();
        boolean cascade = in.peek().isWord("cascade");
        if (cascade || in.peek().isWord("restrict")) {
            in.next();
        }
        return end(in, new UtilityStatement.DropColumn(table, tableIfExists, column, ifExists, cascade));
    }

    /**
     * After {@code ALTER TABLE name}, at {@code RENAME}: {@code RENAME TO new} or {@code RENAME
     * [COLUMN] a TO b}.
     *
     * @throws TributaryException 0A000 for RENAME CONSTRAINT
     */
    static UtilityStatement rename(TokenCursor in, String table, boolean ifExists) {
        in.expectWord("rename");
        if (in.peek().isWord("to")) {
            in.next();
            return end(
                    in,
                    new UtilityStatement.RenameRelation(
                            table, ifExists, in.identifier(), io.tributary.catalog.RelationKind.TABLE));
        }
        if (in.peek().isWord("constraint")) {
            throw TributaryException.notSupported("ALTER TABLE ... RENAME CONSTRAINT");
        }
        if (in.peek().isWord("column") && !in.peekSecond().isWord("to")) {
            in.next();
        }
        String from = in.identifier();
        in.expectWord("to");
        return end(in, new UtilityStatement.RenameColumn(table, ifExists, from, in.identifier()));
    }

    /**
     * {@code statement}, unless the ALTER said IF EXISTS and the action is one whose statement does
     * not carry it (the constraint and sequence actions).
     *
     * @throws TributaryException 0A000 then
     */
    static UtilityStatement onlyIfExists(UtilityStatement statement, boolean ifExists) {
        if (ifExists
                && !(statement instanceof UtilityStatement.AddColumn)
                && !(statement instanceof UtilityStatement.DropColumn)) {
            throw TributaryException.notSupported("ALTER TABLE IF EXISTS with a constraint or sequence action");
        }
        return statement;
    }

    /**
     * After {@code ALTER TABLE name}, at {@code ALTER}: {@code ALTER [COLUMN] c SET DEFAULT
     * nextval('s'::regclass)} or {@code ALTER [COLUMN] c ADD GENERATED {ALWAYS | BY DEFAULT} AS
     * IDENTITY [(options)]}.
     *
     * @throws TributaryException 0A000 for any other ALTER COLUMN, and for another DEFAULT
     */
    static UtilityStatement alterColumn(TokenCursor in, String table) {
        in.expectWord("alter");
        if (in.peek().isWord("column")) {
            in.next();
        }
        String column = in.identifier();
        if (in.peek().isWord("add")) {
            in.next();
            in.expectWord("generated");
            boolean always = in.peek().isWord("always");
            in.next();
            if (!always) {
                in.expectWord("default");
            }
            in.expectWord("as");
            in.expectWord("identity");
            String sequence = SequenceDdlParser.identityOptions(in);
            return end(in, new UtilityStatement.AddIdentity(table, column, always, sequence));
        }
        if (!in.peek().isWord("set") || !in.peekSecond().isWord("default")) {
            throw TributaryException.notSupported("ALTER TABLE ... ALTER COLUMN ... "
                    + in.peek().text().toUpperCase(java.util.Locale.ROOT) + " "
                    + in.peekSecond().text().toUpperCase(java.util.Locale.ROOT));
        }
        in.next();
        in.next();
        if (!in.peek().isWord("nextval") || !in.peekSecond().isSymbol("(")) {
            throw TributaryException.notSupported("ALTER TABLE ... ALTER COLUMN ... SET DEFAULT other than"
                    + " nextval of the column's own sequence");
        }
        in.next();
        in.next();
        Token name = in.next();
        if (name.kind() != Token.Kind.STRING) {
            throw TokenCursor.syntaxAt(name);
        }
        if (in.peek().isSymbol(":") && in.peekSecond().isSymbol(":")) {
            in.next();
            in.next();
            in.expectWord("regclass");
        }
        in.expectSymbol(")");
        return end(in, new UtilityStatement.SetColumnSequence(table, column, in.keyOf(regclassParts(name.text()))));
    }

    private static UtilityStatement end(TokenCursor in, UtilityStatement statement) {
        if (!in.atEnd()) {
            throw TributaryException.notSupported("more than one ALTER TABLE action in a statement");
        }
        return statement;
    }

    /** A regclass string's dotted parts, unquoted parts folded to lower case, quoted ones unquoted. */
    static List<String> regclassParts(String text) {
        List<String> parts = new java.util.ArrayList<>();
        for (String p : text.split("\\.(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)")) {
            String part = p.strip();
            parts.add(
                    part.length() >= 2 && part.startsWith("\"") && part.endsWith("\"")
                            ? part.substring(1, part.length() - 1).replace("\"\"", "\"")
                            : part.toLowerCase(java.util.Locale.ROOT));
        }
        return parts;
    }
}

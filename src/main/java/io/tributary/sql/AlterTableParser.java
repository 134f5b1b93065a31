package io.tributary.sql;

import io.tributary.common.TributaryException;
import java.util.List;

/**
 * The ALTER TABLE actions pg_dump writes after a table's rows ({@code ADD CONSTRAINT ...}), read
 * after the table's name. A primary key is supported; other constraints are 0A000 naming their
 * kind. Called by {@link SourceDdlParser#alterTable}; stateless.
 */
final class AlterTableParser {
    private AlterTableParser() {}

    /**
     * After {@code ALTER TABLE name}, at {@code ADD}: {@code ADD [CONSTRAINT c] PRIMARY KEY (cols)}.
     *
     * @throws TributaryException 0A000 for UNIQUE, FOREIGN KEY, CHECK, EXCLUDE and ADD COLUMN
     */
    static UtilityStatement add(TokenCursor in, String table) {
        in.expectWord("add");
        String constraint = null;
        if (in.peek().isWord("constraint")) {
            in.next();
            constraint = in.identifier();
        }
        if (!in.peek().isWord("primary")) {
            String kind = in.peek().isWord("foreign")
                    ? "FOREIGN KEY"
                    : in.peek().text().toUpperCase(java.util.Locale.ROOT);
            throw TributaryException.notSupported(
                    constraint == null && !isConstraintKind(kind)
                            ? "ALTER TABLE ... ADD COLUMN"
                            : "ALTER TABLE ... ADD CONSTRAINT ... " + kind + " (only PRIMARY KEY constraints)");
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

    private static boolean isConstraintKind(String kind) {
        return List.of("UNIQUE", "FOREIGN KEY", "CHECK", "EXCLUDE").contains(kind);
    }
}

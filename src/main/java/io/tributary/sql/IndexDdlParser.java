package io.tributary.sql;

import io.tributary.common.TributaryException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code CREATE [UNIQUE] INDEX} and {@code DROP INDEX}, in the forms pg_dump and ORMs write: plain
 * column lists over a B-tree. Expressions, partial indexes, other access methods, column options
 * other than ASC and INCLUDE are 0A000 naming them. Called by {@link UtilityParser}; stateless.
 */
final class IndexDdlParser {
    private IndexDdlParser() {}

    /**
     * At {@code [UNIQUE] INDEX} after CREATE: {@code [UNIQUE] INDEX [CONCURRENTLY] [IF NOT EXISTS]
     * [name] ON [ONLY] table [USING btree] (column [ASC], ...)}. CONCURRENTLY builds the index as a
     * plain CREATE INDEX does (see README).
     */
    static UtilityStatement create(TokenCursor in) {
        boolean unique = false;
        if (in.peek().isWord("unique")) {
            in.next();
            unique = true;
        }
        in.expectWord("index");
        if (in.peek().isWord("concurrently")) {
            in.next();
        }
        boolean ifNotExists = in.acceptIfNotExists();
        String name = null;
        if (!in.peek().isWord("on")) {
            name = in.identifier();
        }
        in.expectWord("on");
        if (in.peek().isWord("only")
                && !in.peekSecond().isSymbol(".")
                && !in.peekSecond().isSymbol("(")) {
            in.next();
        }
        String table = in.qualifiedName();
        if (in.peek().isWord("using")) {
            in.next();
            Token method = in.next();
            if (!method.isWord("btree")) {
                throw TributaryException.notSupported("index access method \"" + method.text() + "\"");
            }
        }
        in.expectSymbol("(");
        List<String> columns = new ArrayList<>();
        do {
            if (in.peek().isSymbol("(")) {
                throw TributaryException.notSupported("an index on an expression");
            }
            columns.add(in.identifier());
            if (in.peek().isSymbol("(") || in.peek().isSymbol("::") || in.peek().isSymbol("||")) {
                throw TributaryException.notSupported("an index on an expression");
            }
            if (in.peek().isWord("asc")) {
                in.next();
            } else if (!in.peek().isSymbol(",") && !in.peek().isSymbol(")")) {
                throw TributaryException.notSupported(
                        "index column option " + in.peek().text().toUpperCase(java.util.Locale.ROOT));
            }
        } while (in.acceptSymbol(","));
        in.expectSymbol(")");
        if (!in.atEnd() && !in.peek().isSymbol(";")) {
            String clause = in.peek().text().toUpperCase(java.util.Locale.ROOT);
            throw TributaryException.notSupported(
                    clause.equals("WHERE") ? "a partial index (CREATE INDEX ... WHERE)" : "CREATE INDEX ... " + clause);
        }
        return new UtilityStatement.CreateIndex(name, table, List.copyOf(columns), unique, ifNotExists);
    }

    /** At INDEX after DROP: {@code INDEX [CONCURRENTLY] [IF EXISTS] name, ... [RESTRICT | CASCADE]}. */
    static UtilityStatement drop(TokenCursor in) {
        in.expectWord("index");
        if (in.peek().isWord("concurrently")) {
            in.next();
        }
        boolean ifExists = in.acceptIfExists();
        List<String> names = new ArrayList<>();
        do {
            names.add(in.qualifiedName());
        } while (in.acceptSymbol(","));
        in.acceptCascade();
        return new UtilityStatement.DropIndex(List.copyOf(names), ifExists);
    }
}

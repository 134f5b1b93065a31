package io.tributary.sql;

import io.tributary.catalog.ForeignKeyDef;
import io.tributary.common.TributaryException;
import java.util.List;
import java.util.Locale;

/**
 * The {@code REFERENCES} clause of a FOREIGN KEY constraint, for a column constraint and a table
 * constraint of CREATE TABLE and for ALTER TABLE ... ADD alike. Called on the parsing thread;
 * stateless.
 */
final class ForeignKeyParser {
    private ForeignKeyParser() {}

    /**
     * At {@code REFERENCES parent [(columns)] [MATCH SIMPLE] [ON DELETE action] [ON UPDATE
     * action]}: the constraint on {@code columns}, named {@code constraint} (null: for the DDL to
     * name), its parent the catalog key the name resolves to through the search path.
     *
     * @throws TributaryException 0A000 for MATCH FULL or PARTIAL, DEFERRABLE, INITIALLY and NOT VALID
     */
    static ForeignKeyDef references(TokenCursor in, String constraint, List<String> columns) {
        in.expectWord("references");
        String parent = in.qualifiedName();
        List<String> parentColumns = in.peek().isSymbol("(") ? in.identifierList() : List.of();
        char onUpdate = ForeignKeyDef.NO_ACTION;
        char onDelete = ForeignKeyDef.NO_ACTION;
        while (true) {
            if (in.peek().isWord("match")) {
                in.next();
                String type = in.identifier();
                if (!type.equals("simple")) {
                    throw TributaryException.notSupported("FOREIGN KEY ... MATCH " + type.toUpperCase(Locale.ROOT));
                }
            } else if (in.peek().isWord("on") && in.peekSecond().isWord("delete")) {
                in.next();
                in.next();
                onDelete = action(in);
            } else if (in.peek().isWord("on") && in.peekSecond().isWord("update")) {
                in.next();
                in.next();
                onUpdate = action(in);
            } else if (in.peek().isWord("deferrable")
                    || in.peek().isWord("initially")
                    || in.peek().isWord("not")
                            && (in.peekSecond().isWord("deferrable")
                                    || in.peekSecond().isWord("valid"))) {
                String what = in.peek().isWord("not")
                        ? "NOT " + in.peekSecond().text().toUpperCase(Locale.ROOT)
                        : in.peek().text().toUpperCase(Locale.ROOT);
                throw TributaryException.notSupported("FOREIGN KEY constraints marked " + what);
            } else {
                break;
            }
        }
        return new ForeignKeyDef(constraint, columns, parent, parentColumns, onUpdate, onDelete);
    }

    /** After ON DELETE or ON UPDATE: the action's {@code pg_constraint} letter. */
    private static char action(TokenCursor in) {
        Token t = in.next();
        if (t.isWord("cascade")) {
            return ForeignKeyDef.CASCADE;
        }
        if (t.isWord("restrict")) {
            return ForeignKeyDef.RESTRICT;
        }
        if (t.isWord("no")) {
            in.expectWord("action");
            return ForeignKeyDef.NO_ACTION;
        }
        if (t.isWord("set") && (in.peek().isWord("null") || in.peek().isWord("default"))) {
            boolean toNull = in.next().isWord("null");
            if (in.peek().isSymbol("(")) {
                throw TributaryException.notSupported("ON DELETE SET " + (toNull ? "NULL" : "DEFAULT") + " (columns)");
            }
            return toNull ? ForeignKeyDef.SET_NULL : ForeignKeyDef.SET_DEFAULT;
        }
        throw TokenCursor.syntaxAt(t);
    }
}

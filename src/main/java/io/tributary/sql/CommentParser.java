package io.tributary.sql;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code COMMENT ON {TABLE | VIEW | MATERIALIZED VIEW | SCHEMA | COLUMN} name IS {'text' | NULL}},
 * which pg_dump writes after the objects it creates. Other kinds of object PostgreSQL can comment
 * on are 0A000. Called by {@link UtilityParser} on the session's thread, at {@code COMMENT}.
 */
final class CommentParser {
    private CommentParser() {}

    /**
     * Reads the statement.
     *
     * @throws TributaryException 42601 for a malformed statement or a column name without its
     *     relation, 0A000 for a kind of object Tributary keeps no comments on, 3F000 for a relation
     *     in a schema that does not exist
     */
    static UtilityStatement parse(TokenCursor in) {
        in.expectWord("comment");
        in.expectWord("on");
        Token what = in.next();
        UtilityStatement.CommentTarget target;
        if (what.isWord("materialized") && in.peek().isWord("view")) {
            in.next();
            target = UtilityStatement.CommentTarget.MATERIALIZED_VIEW;
        } else if (what.isWord("table")) {
            target = UtilityStatement.CommentTarget.TABLE;
        } else if (what.isWord("view")) {
            target = UtilityStatement.CommentTarget.VIEW;
        } else if (what.isWord("schema")) {
            target = UtilityStatement.CommentTarget.SCHEMA;
        } else if (what.isWord("column")) {
            target = UtilityStatement.CommentTarget.COLUMN;
        } else if (what.kind() == Token.Kind.WORD) {
            throw TributaryException.notSupported("COMMENT ON " + what.text().toUpperCase(java.util.Locale.ROOT));
        } else {
            throw TokenCursor.syntaxAt(what);
        }
        String name;
        String column = null;
        if (target == UtilityStatement.CommentTarget.SCHEMA) {
            name = in.identifier();
        } else if (target == UtilityStatement.CommentTarget.COLUMN) {
            List<String> parts = new ArrayList<>();
            parts.add(in.identifier());
            while (in.acceptSymbol(".")) {
                parts.add(in.identifier());
            }
            if (parts.size() == 1) {
                throw new TributaryException(SqlState.SYNTAX_ERROR, "column name must be qualified");
            }
            column = parts.remove(parts.size() - 1);
            name = in.keyOf(parts);
        } else {
            name = in.qualifiedName();
        }
        in.expectWord("is");
        Token text = in.next();
        if (text.kind() != Token.Kind.STRING && !text.isWord("null")) {
            throw TokenCursor.syntaxAt(text);
        }
        // PostgreSQL stores no empty comment: '' removes it as NULL does
        String comment = text.kind() == Token.Kind.STRING && !text.text().isEmpty() ? text.text() : null;
        return new UtilityStatement.Comment(target, name, column, comment);
    }
}

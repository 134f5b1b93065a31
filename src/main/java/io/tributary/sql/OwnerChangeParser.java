package io.tributary.sql;

import io.tributary.common.TributaryException;

/**
 * {@code ALTER {TABLE | VIEW | MATERIALIZED VIEW | SEQUENCE | INDEX} [IF EXISTS] [ONLY] name OWNER
 * TO role} and {@code ALTER SCHEMA name OWNER TO role}, which pg_dump writes after every object it
 * creates. Called by {@link UtilityParser} on the session's thread, at the word after ALTER.
 */
final class OwnerChangeParser {
    private OwnerChangeParser() {}

    /** Whether the statement at the cursor (the word after ALTER) is an owner change; reads nothing. */
    static boolean isOwnerChange(TokenCursor in) {
        int at = 0;
        Token kind = in.peek();
        if (kind.isWord("materialized") && in.peekSecond().isWord("view")) {
            at++;
        } else if (!(kind.isWord("table")
                || kind.isWord("view")
                || kind.isWord("sequence")
                || kind.isWord("index")
                || kind.isWord("schema"))) {
            return false;
        }
        at++;
        if (!kind.isWord("schema")
                && in.peekAhead(at).isWord("if")
                && in.peekAhead(at + 1).isWord("exists")) {
            at += 2;
        }
        if (kind.isWord("table")
                && in.peekAhead(at).isWord("only")
                && !in.peekAhead(at + 1).isSymbol(".")) {
            at++;
        }
        at++;
        while (in.peekAhead(at).isSymbol(".")) {
            at += 2;
        }
        return in.peekAhead(at).isWord("owner") && in.peekAhead(at + 1).isWord("to");
    }

    /**
     * Reads the owner change {@link #isOwnerChange} recognised.
     *
     * @throws TributaryException 42601 for a malformed name or role
     */
    static UtilityStatement parse(TokenCursor in) {
        String kind = in.next().text().toUpperCase();
        if (kind.equals("MATERIALIZED")) {
            in.expectWord("view");
            kind = "MATERIALIZED VIEW";
        }
        boolean ifExists = !kind.equals("SCHEMA") && in.acceptIfExists();
        if (kind.equals("TABLE") && in.peek().isWord("only") && !in.peekSecond().isSymbol(".")) {
            in.next();
        }
        String name = kind.equals("SCHEMA") ? in.identifier() : in.qualifiedName();
        in.expectWord("owner");
        in.expectWord("to");
        Token role = in.next();
        if (role.kind() != Token.Kind.WORD && role.kind() != Token.Kind.QUOTED_IDENT) {
            throw TokenCursor.syntaxAt(role);
        }
        boolean sessionUser = role.kind() == Token.Kind.WORD
                && (role.text().equals("current_user")
                        || role.text().equals("current_role")
                        || role.text().equals("session_user"));
        return new UtilityStatement.OwnerChange(kind, name, sessionUser ? null : role.text(), ifExists);
    }
}

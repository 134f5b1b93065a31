package io.tributary.sql;

import io.tributary.common.TributaryException;

/**
 * {@code CREATE DATABASE name} and {@code DROP DATABASE [IF EXISTS] name}. PostgreSQL's options
 * (owner, template, encoding, locale, {@code WITH (FORCE)}) are recognised and refused with 0A000:
 * every database here has the one owner and encoding. Called by {@link UtilityParser} on the
 * session's thread; stateless.
 */
final class DatabaseDdlParser {
    private DatabaseDdlParser() {}

    /** At {@code DATABASE} after CREATE. */
    static UtilityStatement create(TokenCursor in) {
        in.expectWord("database");
        String name = in.identifier();
        refuseOptions(in, "CREATE DATABASE");
        return new UtilityStatement.CreateDatabase(name);
    }

    /** At {@code DATABASE} after DROP. */
    static UtilityStatement drop(TokenCursor in) {
        in.expectWord("database");
        boolean ifExists = in.acceptIfExists();
        String name = in.identifier();
        refuseOptions(in, "DROP DATABASE");
        return new UtilityStatement.DropDatabase(name, ifExists);
    }

    private static void refuseOptions(TokenCursor in, String statement) {
        if (in.peek().kind() == Token.Kind.WORD) {
            throw TributaryException.notSupported(
                    statement + " with " + in.peek().text().toUpperCase() + " options");
        }
        if (in.peek().isSymbol("(")) {
            throw TributaryException.notSupported(statement + " with options");
        }
    }
}

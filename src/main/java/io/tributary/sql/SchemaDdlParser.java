package io.tributary.sql;

import io.tributary.common.TributaryException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code CREATE SCHEMA [IF NOT EXISTS] name} and {@code DROP SCHEMA [IF EXISTS] name [, ...]
 * [CASCADE | RESTRICT]}. {@code AUTHORIZATION} and schema elements (a CREATE TABLE inside CREATE
 * SCHEMA) are recognised and refused with 0A000: there is one role, and elements would need
 * relations in other schemas than {@code public}. Called by {@link UtilityParser} on the session's
 * thread; stateless.
 */
final class SchemaDdlParser {
    private SchemaDdlParser() {}

    /** At {@code SCHEMA} after CREATE. */
    static UtilityStatement create(TokenCursor in) {
        in.expectWord("schema");
        boolean ifNotExists = in.acceptIfNotExists();
        if (in.peek().isWord("authorization")) {
            throw TributaryException.notSupported("CREATE SCHEMA AUTHORIZATION");
        }
        String name = in.identifier();
        if (in.peek().isWord("authorization")) {
            throw TributaryException.notSupported("CREATE SCHEMA AUTHORIZATION");
        }
        if (in.peek().kind() == Token.Kind.WORD) {
            throw TributaryException.notSupported("CREATE SCHEMA with schema elements");
        }
        return new UtilityStatement.CreateSchema(name, ifNotExists);
    }

    /** At {@code SCHEMA} after DROP. */
    static UtilityStatement drop(TokenCursor in) {
        in.expectWord("schema");
        boolean ifExists = in.acceptIfExists();
        List<String> names = new ArrayList<>();
        do {
            names.add(in.identifier());
        } while (in.acceptSymbol(","));
        boolean cascade = in.acceptCascade();
        return new UtilityStatement.DropSchema(names, ifExists, cascade);
    }
}

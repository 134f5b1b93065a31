package io.tributary.sql;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code CREATE SEQUENCE}, {@code ALTER SEQUENCE ... OWNED BY}, {@code DROP SEQUENCE}, and the
 * sequence options of {@code ADD GENERATED ... AS IDENTITY (...)}, as pg_dump writes them. A
 * sequence here counts 1, 2, ... up to its type's bound: the options that say so (START 1,
 * INCREMENT 1, NO MINVALUE, MINVALUE 1, NO MAXVALUE, the type's MAXVALUE, NO CYCLE, any CACHE) are
 * taken, others are 0A000 naming them. Stateless.
 */
final class SequenceDdlParser {
    private SequenceDdlParser() {}

    /** After CREATE, at SEQUENCE. */
    static UtilityStatement create(TokenCursor in) {
        in.expectWord("sequence");
        boolean ifNotExists = in.acceptIfNotExists();
        String name = in.creationName();
        Options options = options(in, false);
        if (!in.atEnd()) {
            throw TokenCursor.syntaxAt(in.peek());
        }
        return new UtilityStatement.CreateSequence(name, options.type, ifNotExists);
    }

    /** After ALTER, at SEQUENCE: {@code ALTER SEQUENCE [IF EXISTS] name OWNED BY {NONE | t.c}}. */
    static UtilityStatement alter(TokenCursor in) {
        in.expectWord("sequence");
        boolean ifExists = in.acceptIfExists();
        String name = in.qualifiedName();
        if (!in.peek().isWord("owned")) {
            throw TributaryException.notSupported(
                    "ALTER SEQUENCE ... " + in.peek().text().toUpperCase(Locale.ROOT));
        }
        in.next();
        in.expectWord("by");
        if (in.peek().isWord("none")) {
            in.next();
            return new UtilityStatement.AlterSequenceOwnedBy(name, ifExists, null, null);
        }
        List<String> parts = new ArrayList<>();
        parts.add(in.identifier());
        while (in.acceptSymbol(".")) {
            parts.add(in.identifier());
        }
        if (parts.size() < 2) {
            throw new TributaryException(SqlState.SYNTAX_ERROR, "invalid OWNED BY option");
        }
        String column = parts.remove(parts.size() - 1);
        return new UtilityStatement.AlterSequenceOwnedBy(name, ifExists, in.keyOf(parts), column);
    }

    /** After DROP, at SEQUENCE. */
    static UtilityStatement drop(TokenCursor in) {
        in.expectWord("sequence");
        boolean ifExists = in.acceptIfExists();
        List<String> names = new ArrayList<>();
        do {
            names.add(in.qualifiedName());
        } while (in.acceptSymbol(","));
        in.acceptCascade();
        return new UtilityStatement.DropSequence(names, ifExists);
    }

    /**
     * The parenthesised options of an identity column, after IDENTITY: the sequence's key when
     * {@code SEQUENCE NAME} names one, else null.
     */
    static String identityOptions(TokenCursor in) {
        if (!in.acceptSymbol("(")) {
            return null;
        }
        Options options = options(in, true);
        in.expectSymbol(")");
        return options.name;
    }

    /** What the options said: the type (bigint unless AS says) and, for an identity, the name. */
    private static final class Options {
        String type = "bigint";
        String name;
        Long maxValue;
    }

    private static Options options(TokenCursor in, boolean identity) {
        Options o = new Options();
        while (!in.atEnd() && !in.peek().isSymbol(")")) {
            Token t = in.next();
            String word = t.text().toLowerCase(Locale.ROOT);
            switch (word) {
                case "as" -> o.type = type(in.identifier());
                case "start" -> {
                    acceptWord(in, "with");
                    requireOne(in, "START");
                }
                case "increment" -> {
                    acceptWord(in, "by");
                    requireOne(in, "INCREMENT");
                }
                case "minvalue" -> requireOne(in, "MINVALUE");
                case "maxvalue" -> o.maxValue = number(in);
                case "cache" -> number(in);
                case "no" -> {
                    Token what = in.next();
                    if (!what.isWord("minvalue") && !what.isWord("maxvalue") && !what.isWord("cycle")) {
                        throw TokenCursor.syntaxAt(what);
                    }
                }
                case "cycle" -> throw TributaryException.notSupported("a sequence with CYCLE");
                case "owned" ->
                    throw TributaryException.notSupported(
                            "CREATE SEQUENCE ... OWNED BY (use ALTER SEQUENCE ... OWNED BY)");
                case "sequence" -> {
                    if (!identity) {
                        throw TokenCursor.syntaxAt(t);
                    }
                    in.expectWord("name");
                    o.name = in.qualifiedName();
                }
                default -> throw TributaryException.notSupported("sequence option " + word.toUpperCase(Locale.ROOT));
            }
        }
        if (o.maxValue != null && o.maxValue != maxOf(o.type)) {
            throw TributaryException.notSupported(
                    "a sequence with MAXVALUE " + o.maxValue + " (only the type's bound)");
        }
        return o;
    }

    private static void acceptWord(TokenCursor in, String word) {
        if (in.peek().isWord(word)) {
            in.next();
        }
    }

    private static void requireOne(TokenCursor in, String option) {
        long n = number(in);
        if (n != 1) {
            throw TributaryException.notSupported(
                    "a sequence with " + option + " " + n + " (sequences here count 1, 2, ...)");
        }
    }

    private static long number(TokenCursor in) {
        boolean negative = in.acceptSymbol("-");
        Token t = in.next();
        if (t.kind() != Token.Kind.NUMBER || t.text().contains(".")) {
            throw TokenCursor.syntaxAt(t);
        }
        try {
            long n = Long.parseLong(t.text());
            return negative ? -n : n;
        } catch (NumberFormatException e) {
            throw TributaryException.notSupported("a sequence option value " + t.text());
        }
    }

    private static String type(String name) {
        return switch (name) {
            case "smallint", "int2" -> "smallint";
            case "integer", "int", "int4" -> "integer";
            case "bigint", "int8" -> "bigint";
            default ->
                throw new TributaryException(
                        SqlState.INVALID_PARAMETER_VALUE, "sequence type must be smallint, integer, or bigint");
        };
    }

    private static long maxOf(String type) {
        return switch (type) {
            case "smallint" -> Short.MAX_VALUE;
            case "integer" -> Integer.MAX_VALUE;
            default -> Long.MAX_VALUE;
        };
    }
}

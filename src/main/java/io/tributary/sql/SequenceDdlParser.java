package io.tributary.sql;

import io.tributary.catalog.SequenceOptions;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code CREATE SEQUENCE} with PostgreSQL's options, {@code ALTER SEQUENCE} with options, {@code
 * RESTART} or {@code OWNED BY}, {@code DROP SEQUENCE}, and the sequence options of {@code ADD
 * GENERATED ... AS IDENTITY (...)}, as pg_dump writes them. An identity column's sequence counts
 * 1, 2, ... up to its type's bound: the options that say so (START 1, INCREMENT 1, NO MINVALUE,
 * MINVALUE 1, NO MAXVALUE, the type's MAXVALUE, NO CYCLE, any CACHE) are taken there, others are
 * 0A000 naming them. Stateless.
 */
final class SequenceDdlParser {
    private SequenceDdlParser() {}

    /** After CREATE, at SEQUENCE. */
    static UtilityStatement create(TokenCursor in) {
        in.expectWord("sequence");
        boolean ifNotExists = in.acceptIfNotExists();
        String name = in.creationName();
        Options options = options(in, false, false);
        if (!in.atEnd()) {
            throw TokenCursor.syntaxAt(in.peek());
        }
        return new UtilityStatement.CreateSequence(name, options.type, options.given(), ifNotExists);
    }

    /**
     * After ALTER, at SEQUENCE: {@code ALTER SEQUENCE [IF EXISTS] name OWNED BY {NONE | t.c}}, or
     * options and {@code RESTART [[WITH] n]}.
     */
    static UtilityStatement alter(TokenCursor in) {
        in.expectWord("sequence");
        boolean ifExists = in.acceptIfExists();
        String name = in.qualifiedName();
        if (!in.peek().isWord("owned")) {
            Options options = options(in, false, true);
            if (!in.atEnd()) {
                throw TokenCursor.syntaxAt(in.peek());
            }
            if (options.typeGiven) {
                throw TributaryException.notSupported("ALTER SEQUENCE ... AS");
            }
            return new UtilityStatement.AlterSequence(
                    name, ifExists, options.given(), options.restart, options.restartWith);
        }
        in.next();
        in.expectWord("by");
        if (in.peek().isWord("none")) {
            in.next();
            onlyOwnedBy(in);
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
        onlyOwnedBy(in);
        String column = parts.remove(parts.size() - 1);
        return new UtilityStatement.AlterSequenceOwnedBy(name, ifExists, in.keyOf(parts), column);
    }

    /** OWNED BY is taken alone; PostgreSQL's other options beside it are 0A000. */
    private static void onlyOwnedBy(TokenCursor in) {
        if (!in.atEnd() && in.peek().kind() == Token.Kind.WORD) {
            throw TributaryException.notSupported("ALTER SEQUENCE ... OWNED BY beside other options");
        }
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
     * {@code SEQUENCE NAME} names one, else null. An identity column counts 1, 2, ... (options that
     * say otherwise are 0A000 naming them).
     */
    static String identityOptions(TokenCursor in) {
        if (!in.acceptSymbol("(")) {
            return null;
        }
        Options options = options(in, true, false);
        in.expectSymbol(")");
        checkCountsByOne(options);
        return options.name;
    }

    /** What the options said: the type (bigint unless AS says), for an identity the name, for ALTER RESTART. */
    private static final class Options {
        String type = "bigint";
        boolean typeGiven;
        String name;
        Long start;
        Long increment;
        Long min;
        boolean noMin;
        Long max;
        boolean noMax;
        Boolean cycle;
        Long cache;
        boolean restart;
        Long restartWith;

        SequenceOptions.Given given() {
            return new SequenceOptions.Given(start, increment, min, noMin, max, noMax, cycle, cache);
        }
    }

    private static Options options(TokenCursor in, boolean identity, boolean alter) {
        Options o = new Options();
        while (!in.atEnd() && !in.peek().isSymbol(")")) {
            Token t = in.next();
            String word = t.text().toLowerCase(Locale.ROOT);
            switch (word) {
                case "as" -> {
                    o.type = type(in.identifier());
                    o.typeGiven = true;
                }
                case "start" -> {
                    acceptWord(in, "with");
                    o.start = number(in);
                }
                case "increment" -> {
                    acceptWord(in, "by");
                    o.increment = number(in);
                }
                case "minvalue" -> o.min = number(in);
                case "maxvalue" -> o.max = number(in);
                case "cache" -> o.cache = number(in);
                case "cycle" -> o.cycle = true;
                case "no" -> {
                    Token what = in.next();
                    if (what.isWord("minvalue")) {
                        o.noMin = true;
                    } else if (what.isWord("maxvalue")) {
                        o.noMax = true;
                    } else if (what.isWord("cycle")) {
                        o.cycle = false;
                    } else {
                        throw TokenCursor.syntaxAt(what);
                    }
                }
                case "restart" -> {
                    if (!alter) {
                        throw TokenCursor.syntaxAt(t);
                    }
                    o.restart = true;
                    acceptWord(in, "with");
                    if (!in.atEnd()
                            && (in.peek().kind() == Token.Kind.NUMBER
                                    || in.peek().isSymbol("-"))) {
                        o.restartWith = number(in);
                    }
                }
                case "owned" ->
                    throw TributaryException.notSupported((alter
                                    ? "ALTER SEQUENCE ... OWNED BY beside other options"
                                    : "CREATE SEQUENCE ... OWNED BY")
                            + " (use ALTER SEQUENCE ... OWNED BY alone)");
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
        return o;
    }

    /** An identity column's sequence counts 1, 2, ... to its type's bound: other options are 0A000. */
    private static void checkCountsByOne(Options o) {
        requireOne(o.start, "START");
        requireOne(o.increment, "INCREMENT");
        requireOne(o.min, "MINVALUE");
        if (Boolean.TRUE.equals(o.cycle)) {
            throw TributaryException.notSupported("an identity column's sequence with CYCLE");
        }
        if (o.max != null && o.max != maxOf(o.type)) {
            throw TributaryException.notSupported(
                    "an identity column's sequence with MAXVALUE " + o.max + " (only the type's bound)");
        }
    }

    private static void requireOne(Long n, String option) {
        if (n != null && n != 1) {
            throw TributaryException.notSupported(
                    "an identity column's sequence with " + option + " " + n + " (identity columns count 1, 2, ...)");
        }
    }

    private static void acceptWord(TokenCursor in, String word) {
        if (in.peek().isWord(word)) {
            in.next();
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

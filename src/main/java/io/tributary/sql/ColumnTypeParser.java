package io.tributary.sql;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import io.tributary.common.types.FractionalSeconds;
import io.tributary.common.types.TypeKind;

/**
 * A column type in CREATE TABLE: a name from {@link PgTypeNames} and the modifiers PostgreSQL's
 * grammar allows after it ({@code numeric(p, s)}, {@code varchar(n)}, {@code float(p)}, {@code
 * double precision}, {@code character varying}, {@code character(n)}, {@code time[stamp][(p)]
 * with[out] time zone}) and an array suffix ({@code text[]}, {@code integer ARRAY}).
 * Called by {@link TableDdlParser} on the parsing thread; stateless.
 */
final class ColumnTypeParser {
    private ColumnTypeParser() {}

    /**
     * Consumes a type name with its modifiers.
     *
     * @throws TributaryException 42704 for an unknown name; 0A000 for a PostgreSQL type Tributary
     *     does not have or TIME WITH TIME ZONE; 22023 for a
     *     precision, scale or length out of range
     */
    static DataType type(TokenCursor in) {
        Token t = in.next();
        if (t.kind() == Token.Kind.QUOTED_IDENT && t.text().equals("char")) {
            // PostgreSQL's one-byte type of its catalogs (pg_class.relkind), which no column here can have
            throw TributaryException.notSupported("the column type \"char\"");
        }
        if (t.kind() != Token.Kind.WORD) {
            throw TokenCursor.syntaxAt(t);
        }
        DataType type = switch (t.text()) {
            case "float" -> {
                if (in.acceptSymbol("(")) {
                    int p = in.integer();
                    in.expectSymbol(")");
                    yield p <= 24 ? DataType.REAL : DataType.DOUBLE;
                }
                yield DataType.DOUBLE;
            }
            case "double" -> {
                in.expectWord("precision");
                yield DataType.DOUBLE;
            }
            case "numeric", "decimal" -> numeric(in, t);
            case "varchar" -> varchar(in);
            case "character", "char" -> {
                if (in.peek().isWord("varying")) {
                    in.next();
                    yield varchar(in);
                }
                // PostgreSQL's grammar: character without a length is character(1)
                yield in.peek().isSymbol("(") ? character(in, t) : DataType.bpchar(1);
            }
            // the type's own name: without a length it pads nothing (any length is kept)
            case "bpchar" -> in.peek().isSymbol("(") ? character(in, t) : DataType.bpchar(-1);
            case "time" -> {
                int p = fractionDigits(in);
                if (in.peek().isWord("with")) {
                    throw TributaryException.notSupported("type TIME WITH TIME ZONE");
                }
                acceptWithoutTimeZone(in);
                yield DataType.withFractionDigits(TypeKind.TIME, p);
            }
            case "timestamp" -> {
                int p = fractionDigits(in);
                if (in.peek().isWord("with")) {
                    in.next();
                    in.expectWord("time");
                    in.expectWord("zone");
                    yield DataType.withFractionDigits(TypeKind.TIMESTAMPTZ, p);
                }
                acceptWithoutTimeZone(in);
                yield DataType.withFractionDigits(TypeKind.TIMESTAMP, p);
            }
            case "timestamptz" -> DataType.withFractionDigits(TypeKind.TIMESTAMPTZ, fractionDigits(in));
            default -> plain(t);
        };
        if (in.peek().isSymbol("[")) {
            return arrayOf(type, in);
        }
        if (in.peek().isWord("array")) {
            // SQL's spelling, integer ARRAY [n]: one dimension, as PostgreSQL reads it
            in.next();
            if (in.acceptSymbol("[")) {
                in.integer();
                in.expectSymbol("]");
            }
            return array(type);
        }
        return type;
    }

    /**
     * {@code type[]}, {@code type[n]}: PostgreSQL ignores a declared size and the number of
     * dimensions ({@code int[][]} holds one-dimensional arrays too), and so does Tributary, which
     * stores one-dimensional arrays only.
     */
    private static DataType arrayOf(DataType element, TokenCursor in) {
        while (in.acceptSymbol("[")) {
            if (!in.peek().isSymbol("]")) {
                in.integer();
            }
            in.expectSymbol("]");
        }
        return array(element);
    }

    private static DataType array(DataType element) {
        if (!element.kind().arrayElement()) {
            throw TributaryException.notSupported("the array column type " + element.sqlName() + "[]");
        }
        return DataType.array(element);
    }

    /** A name that takes no modifiers. */
    private static DataType plain(Token t) {
        DataType type = PgTypeNames.lookup(t.text());
        if (type != null) {
            return type;
        }
        if (PgTypeNames.isUnsupported(t.text())) {
            throw TributaryException.notSupported("type " + t.text());
        }
        throw TokenCursor.errorAt(SqlState.UNDEFINED_OBJECT, "type \"" + t.text() + "\" does not exist", t);
    }

    private static DataType numeric(TokenCursor in, Token name) {
        if (!in.acceptSymbol("(")) {
            return DataType.NUMERIC;
        }
        int p = in.integer();
        int s = in.acceptSymbol(",") ? in.integer() : 0;
        in.expectSymbol(")");
        if (p < 1 || p > 1000) {
            throw TokenCursor.errorAt(
                    SqlState.INVALID_PARAMETER_VALUE, "NUMERIC precision " + p + " must be between 1 and 1000", name);
        }
        if (s < 0 || s > p) {
            throw TokenCursor.errorAt(
                    SqlState.INVALID_PARAMETER_VALUE,
                    "NUMERIC scale " + s + " must be between 0 and precision " + p,
                    name);
        }
        return DataType.numeric(p, s);
    }

    /** {@code (n)} after {@code character}, {@code char} or {@code bpchar}. */
    private static DataType character(TokenCursor in, Token name) {
        in.expectSymbol("(");
        int n = in.integer();
        in.expectSymbol(")");
        if (n < 1) {
            throw TokenCursor.errorAt(
                    SqlState.INVALID_PARAMETER_VALUE, "length for type bpchar must be at least 1", name);
        }
        return DataType.bpchar(n);
    }

    private static DataType varchar(TokenCursor in) {
        if (in.acceptSymbol("(")) {
            int n = in.integer();
            in.expectSymbol(")");
            if (n < 1) {
                throw new TributaryException(
                        SqlState.INVALID_PARAMETER_VALUE, "length for type varchar must be at least 1");
            }
            return DataType.varchar(n);
        }
        return DataType.VARCHAR;
    }

    /**
     * A time type's {@code (p)}, -1 when absent. PostgreSQL reduces a precision above 6 to 6 (with a
     * WARNING, which {@link TimePrecisionWarnings} sends); a negative one is a syntax error of its grammar, as here.
     */
    private static int fractionDigits(TokenCursor in) {
        if (!in.acceptSymbol("(")) {
            return -1;
        }
        int p = in.integer();
        in.expectSymbol(")");
        return Math.min(p, FractionalSeconds.MAX_PRECISION);
    }

    private static void acceptWithoutTimeZone(TokenCursor in) {
        if (in.peek().isWord("without")) {
            in.next();
            in.expectWord("time");
            in.expectWord("zone");
        }
    }
}

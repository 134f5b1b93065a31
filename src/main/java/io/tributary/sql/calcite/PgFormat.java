package io.tributary.sql.calcite;

import io.tributary.catalog.pg.PgDefinitions;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;

/**
 * PostgreSQL's {@code format(formatstr, args...)}: {@code %s} (the text, NULL as empty),
 * {@code %I} (an identifier, quoted as {@code quote_ident}; NULL is 22004) and {@code %L} (a literal
 * as {@code quote_literal}, NULL as {@code NULL}), each with an optional position {@code n$}, a
 * {@code -} flag and a width ({@code n}, {@code *} or {@code *n$}); {@code %%} is a percent sign.
 * {@link PgValueSemantics} passes every argument as its PostgreSQL text ({@link PgConcatText}), so
 * these overloads, one per argument count up to eight, take text. Calcite calls them by reflection
 * on the thread evaluating the expression; a NULL format gives NULL.
 */
public final class PgFormat {
    private PgFormat() {}

    public static String format(String f) {
        return apply(f);
    }

    public static String format(String f, String a) {
        return apply(f, a);
    }

    public static String format(String f, String a, String b) {
        return apply(f, a, b);
    }

    public static String format(String f, String a, String b, String c) {
        return apply(f, a, b, c);
    }

    public static String format(String f, String a, String b, String c, String d) {
        return apply(f, a, b, c, d);
    }

    public static String format(String f, String a, String b, String c, String d, String e) {
        return apply(f, a, b, c, d, e);
    }

    public static String format(String f, String a, String b, String c, String d, String e, String g) {
        return apply(f, a, b, c, d, e, g);
    }

    public static String format(String f, String a, String b, String c, String d, String e, String g, String h) {
        return apply(f, a, b, c, d, e, g, h);
    }

    public static String format(
            String f, String a, String b, String c, String d, String e, String g, String h, String i) {
        return apply(f, a, b, c, d, e, g, h, i);
    }

    private static String apply(String f, String... args) {
        if (f == null) {
            return null;
        }
        StringBuilder out = new StringBuilder(f.length() + 16);
        int next = 0;
        int i = 0;
        while (i < f.length()) {
            char c = f.charAt(i++);
            if (c != '%') {
                out.append(c);
                continue;
            }
            if (i >= f.length()) {
                throw unterminated();
            }
            if (f.charAt(i) == '%') {
                out.append('%');
                i++;
                continue;
            }
            // [position$]
            int position = -1;
            int digitsEnd = digitsEnd(f, i);
            if (digitsEnd > i && digitsEnd < f.length() && f.charAt(digitsEnd) == '$') {
                position = argumentNumber(f, i, digitsEnd);
                i = digitsEnd + 1;
            }
            boolean left = false;
            while (i < f.length() && f.charAt(i) == '-') {
                left = true;
                i++;
            }
            int width = 0;
            if (i < f.length() && f.charAt(i) == '*') {
                i++;
                int end = digitsEnd(f, i);
                String w;
                if (end > i && end < f.length() && f.charAt(end) == '$') {
                    int n = argumentNumber(f, i, end);
                    w = argument(args, n - 1);
                    next = n;
                    i = end + 1;
                } else {
                    w = argument(args, next++);
                }
                width = w == null ? 0 : widthOf(w);
                if (width < 0) {
                    left = true;
                    width = -width;
                }
            } else {
                int end = digitsEnd(f, i);
                if (end > i) {
                    width = widthOf(f.substring(i, end));
                    i = end;
                }
            }
            if (i >= f.length()) {
                throw unterminated();
            }
            char type = f.charAt(i++);
            if (type != 's' && type != 'I' && type != 'L') {
                throw new TributaryException(
                        SqlState.INVALID_PARAMETER_VALUE, "unrecognized format() type specifier \"" + type + "\"");
            }
            String value;
            if (position > 0) {
                value = argument(args, position - 1);
                next = position;
            } else {
                value = argument(args, next++);
            }
            String text = switch (type) {
                case 's' -> value == null ? "" : value;
                case 'I' -> {
                    if (value == null) {
                        throw new TributaryException(
                                SqlState.NULL_VALUE_NOT_ALLOWED,
                                "null values cannot be formatted as an SQL identifier");
                    }
                    yield PgDefinitions.quoteIdent(value);
                }
                default -> value == null ? "NULL" : PgCatalogFunctions.quote_literal(value);
            };
            if (!left) {
                pad(out, width - text.codePointCount(0, text.length()));
            }
            out.append(text);
            if (left) {
                pad(out, width - text.codePointCount(0, text.length()));
            }
        }
        return out.toString();
    }

    private static int digitsEnd(String f, int from) {
        int i = from;
        while (i < f.length() && f.charAt(i) >= '0' && f.charAt(i) <= '9') {
            i++;
        }
        return i;
    }

    private static int argumentNumber(String f, int from, int to) {
        int n = widthOf(f.substring(from, to));
        if (n == 0) {
            throw new TributaryException(
                    SqlState.INVALID_PARAMETER_VALUE, "format specifies argument 0, but arguments are numbered from 1");
        }
        return n;
    }

    private static int widthOf(String digits) {
        try {
            return Integer.parseInt(digits.strip());
        } catch (NumberFormatException e) {
            // a width argument is read as int4 input
            throw new TributaryException(
                    SqlState.INVALID_TEXT_REPRESENTATION, "invalid input syntax for type integer: \"" + digits + "\"");
        }
    }

    private static String argument(String[] args, int index) {
        if (index >= args.length) {
            throw new TributaryException(SqlState.INVALID_PARAMETER_VALUE, "too few arguments for format()");
        }
        return args[index];
    }

    private static void pad(StringBuilder out, int spaces) {
        for (int k = 0; k < spaces; k++) {
            out.append(' ');
        }
    }

    private static TributaryException unterminated() {
        return new TributaryException(SqlState.INVALID_PARAMETER_VALUE, "unterminated format() type specifier");
    }
}

package io.tributary.common.types;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Locale;

/**
 * PostgreSQL's {@code to_char} of numbers ({@code 9 0 . , D G S MI PL SG PR FM EEEE V L RN TH},
 * in the C locale: {@code D} is a point, {@code G} a comma, {@code L} a blank) and {@code
 * to_number}. The value is first written as PostgreSQL writes it for the template (rounded to the
 * template's fraction digits: numeric half away from zero, floats as C's {@code printf}, with
 * {@code #} in every digit place when the integer part does not fit); {@link NumberLayout} then
 * places its digits, blanks, sign and separators. Called by the code Calcite generates on the
 * thread evaluating the expression; stateless apart from the template cache.
 */
public final class PgNumberFormat {
    /** The keywords; upper and lower case spellings read the same. */
    static final List<String> KEYWORDS = List.of(
            ",", ".", "0", "9", "B", "C", "D", "EEEE", "FM", "G", "L", "MI", "PL", "PR", "RN", "SG", "SP", "S", "TH",
            "V", "b", "c", "d", "eeee", "fm", "g", "l", "mi", "pl", "pr", "rn", "sg", "sp", "s", "th", "v");

    /** Significant decimal digits of a double ({@code DBL_DIG}) and a real ({@code FLT_DIG}). */
    private static final int DOUBLE_DIGITS = 15;

    private static final int FLOAT_DIGITS = 6;

    private PgNumberFormat() {}

    /** {@code to_char(numeric, text)}. */
    public static String numeric(BigDecimal value, String template) {
        NumberLayout layout = NumberLayout.of(template);
        if (layout.roman) {
            BigDecimal rounded = value.setScale(0, RoundingMode.HALF_UP);
            if (rounded.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) > 0
                    || rounded.compareTo(BigDecimal.valueOf(Integer.MIN_VALUE)) < 0) {
                throw new TributaryException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "integer out of range");
            }
            return layout.roman(rounded.intValue());
        }
        if (layout.eeee) {
            return scientific(value, layout.post);
        }
        BigDecimal v = value;
        int pre = layout.pre;
        if (layout.multi > 0) {
            v = v.movePointRight(layout.multi);
            pre += layout.multi;
        }
        String text = v.setScale(layout.post, RoundingMode.HALF_UP).toPlainString();
        return layout.render(text, pre);
    }

    /** {@code to_char(integer, text)} and {@code to_char(bigint, text)}. */
    public static String integer(long value, boolean bigint, String template) {
        NumberLayout layout = NumberLayout.of(template);
        if (layout.roman) {
            if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
                throw new TributaryException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "integer out of range");
            }
            return layout.roman((int) value);
        }
        if (layout.eeee) {
            return bigint ? scientific(BigDecimal.valueOf(value), layout.post) : printfScientific(value, layout.post);
        }
        int pre = layout.pre;
        String text;
        if (layout.multi > 0) {
            text = bigint
                    ? Long.toString(timesPowerOfTen(value, layout.multi))
                    : Integer.toString((int) value * (int) Math.pow(10, layout.multi));
            pre += layout.multi;
        } else {
            text = Long.toString(value);
        }
        if (layout.post > 0) {
            text = text + "." + "0".repeat(layout.post);
        }
        return layout.render(text, pre);
    }

    /** {@code value * 10^power} as bigint arithmetic: 22003 beyond its range. */
    private static long timesPowerOfTen(long value, int power) {
        try {
            return Math.multiplyExact(value, (long) Math.pow(10, power));
        } catch (ArithmeticException e) {
            throw new TributaryException(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "bigint out of range");
        }
    }

    /** {@code to_char(double precision, text)}; {@code real} keeps {@code FLT_DIG} digits instead. */
    public static String floating(double value, boolean real, String template) {
        NumberLayout layout = NumberLayout.of(template);
        if (layout.roman) {
            return layout.roman((int) Math.rint(value));
        }
        if (layout.eeee) {
            if (Double.isNaN(value) || Double.isInfinite(value)) {
                StringBuilder s = new StringBuilder(" ");
                s.append("#".repeat(layout.pre)).append('.').append("#".repeat(layout.post + 4));
                return s.toString();
            }
            return printfScientific(value, layout.post);
        }
        double v = value;
        int pre = layout.pre;
        if (layout.multi > 0) {
            v = value * Math.pow(10, layout.multi);
            pre += layout.multi;
        }
        int digits = real ? FLOAT_DIGITS : DOUBLE_DIGITS;
        String text;
        int post = layout.post;
        if (Double.isNaN(v)) {
            text = "NaN";
        } else if (Double.isInfinite(v)) {
            text = v > 0 ? "Infinity" : "-Infinity";
        } else {
            int whole = fixed(Math.abs(v), 0).length();
            if (whole >= digits) {
                post = 0;
            } else if (whole + post > digits) {
                post = digits - whole;
            }
            text = fixed(v, post);
        }
        return layout.render(text, pre, post);
    }

    /** C's {@code %.Nf}: the binary value exactly, rounded half to even. */
    private static String fixed(double v, int post) {
        String s = new BigDecimal(v).setScale(post, RoundingMode.HALF_EVEN).toPlainString();
        return v < 0 || (v == 0 && 1 / v < 0) ? (s.startsWith("-") ? s : "-" + s) : s;
    }

    /** C's {@code %+.Ne} with the plus sign written as a blank. */
    private static String printfScientific(double v, int post) {
        BigDecimal exact = new BigDecimal(v);
        String s = sci(exact, post, RoundingMode.HALF_EVEN);
        return v < 0 || (v == 0 && 1 / v < 0) ? s : " " + s;
    }

    /** PostgreSQL's {@code numeric_out_sci} with a blank before a positive value. */
    private static String scientific(BigDecimal value, int post) {
        String s = sci(value, post, RoundingMode.HALF_UP);
        return value.signum() < 0 ? s : " " + s;
    }

    private static String sci(BigDecimal value, int post, RoundingMode mode) {
        if (value.signum() == 0) {
            return (post > 0 ? "0." + "0".repeat(post) : "0") + "e+00";
        }
        int exponent = value.precision() - value.scale() - 1;
        BigDecimal mantissa = value.movePointLeft(exponent).setScale(post, mode);
        // PostgreSQL's numeric keeps the exponent of the unrounded value (9.999 is 10.00e+00); printf's does not
        if (mode == RoundingMode.HALF_EVEN && mantissa.abs().compareTo(BigDecimal.TEN) >= 0) {
            exponent++;
            mantissa = value.movePointLeft(exponent).setScale(post, mode);
        }
        StringBuilder out = new StringBuilder(mantissa.toPlainString());
        out.append('e').append(exponent < 0 ? '-' : '+');
        int e = Math.abs(exponent);
        if (e < 10) {
            out.append('0');
        }
        return out.append(e).toString();
    }

    /**
     * {@code to_number(text, template)}: the digits the template's digit places read, its decimal
     * point and sign, as a numeric of the template's fraction digits.
     *
     * @throws TributaryException 22P02 when no digit is read, 0A000 for EEEE and RN, 42601 for an
     *     invalid template
     */
    public static BigDecimal parse(String text, String template) {
        NumberLayout layout = NumberLayout.of(template);
        if (layout.eeee) {
            throw new TributaryException(SqlState.FEATURE_NOT_SUPPORTED, "\"EEEE\" not supported for input");
        }
        if (layout.roman) {
            throw new TributaryException(SqlState.FEATURE_NOT_SUPPORTED, "\"RN\" not supported for input");
        }
        String digits = layout.read(text);
        BigDecimal result;
        try {
            // the scale is the fraction digits read (at most the template's), as numeric_in gives it
            result = new BigDecimal(digits);
        } catch (NumberFormatException e) {
            // PostgreSQL's text of no digits is its sign place, a blank
            throw new TributaryException(
                    SqlState.INVALID_TEXT_REPRESENTATION,
                    "invalid input syntax for type numeric: \""
                            + (digits.isEmpty() ? " " : digits.toLowerCase(Locale.ROOT)) + "\"");
        }
        if (layout.multi > 0) {
            // PostgreSQL multiplies by numeric 10^-multi, whose scale is 16
            result = result.multiply(BigDecimal.ONE.movePointLeft(layout.multi).setScale(16));
        }
        return result;
    }
}

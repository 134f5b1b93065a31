package io.tributary.common.types;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A number template of {@code to_char}/{@code to_number} read into what PostgreSQL derives from
 * it (digit places before and after the point, where zero-filling starts, the sign's kind and
 * place, fill mode) and the two walks over its nodes: {@link #render} writes a number's text into
 * the template, {@link #read} reads a number out of text. Immutable once built; {@link #of} caches
 * layouts by template text, so the walks allocate only their output.
 */
final class NumberLayout {
    private static final int CACHED = 512;
    private static final Map<String, NumberLayout> CACHE = new ConcurrentHashMap<>();

    private static final int DIGIT = 0;
    private static final int POINT = 1;
    private static final int COMMA = 2;
    private static final int MINUS = 3;
    private static final int PLUS = 4;
    private static final int SIGN = 5;
    private static final int TH_UPPER = 6;
    private static final int TH_LOWER = 7;
    private static final int ROMAN_UPPER = 8;
    private static final int ROMAN_LOWER = 9;
    private static final int CURRENCY = 10;
    private static final int NOTHING = 11;
    private static final int ZERO = 12;

    final FormatTemplate template;
    /** Per node: what it does ({@link #DIGIT} ...). */
    private final int[] action;

    int pre;
    int post;
    int multi;
    boolean roman;
    boolean eeee;
    private boolean decimal;
    /** Whether {@code V} was seen: later digit places multiply instead. */
    private boolean times;

    private boolean fill;
    private boolean zero;
    /** Zero-based digit place where {@code 0} starts zero filling; meaningful with {@link #zero}. */
    private int zeroStart;
    /** Digit places up to the last {@code 0}. */
    private int zeroEnd;

    private boolean bracket;
    private boolean minus;
    private boolean plus;
    /** The locale sign {@code S}: none, before or after the digits. */
    private boolean lsign;

    private boolean lsignPost;
    private int preAtLsign;

    private NumberLayout(FormatTemplate template) {
        this.template = template;
        this.action = new int[template.size()];
    }

    /** The layout of {@code text}. @throws TributaryException 42601 for a template PostgreSQL rejects */
    static NumberLayout of(String text) {
        NumberLayout cached = CACHE.get(text);
        if (cached != null) {
            return cached;
        }
        NumberLayout layout = new NumberLayout(FormatTemplate.of(text, PgNumberFormat.KEYWORDS, false));
        layout.prepare();
        if (CACHE.size() >= CACHED) {
            CACHE.clear();
        }
        CACHE.put(text, layout);
        return layout;
    }

    private void prepare() {
        for (int i = 0; i < template.size(); i++) {
            int k = template.keyword[i];
            if (k < 0) {
                action[i] = -1;
                continue;
            }
            String word = PgNumberFormat.KEYWORDS.get(k).toUpperCase(Locale.ROOT);
            action[i] = NOTHING;
            if (eeee && !word.equals("EEEE")) {
                throw syntax("\"EEEE\" must be the last pattern used");
            }
            switch (word) {
                case "9", "0" -> {
                    if (bracket) {
                        throw syntax("\"" + word + "\" must be ahead of \"PR\"");
                    }
                    if (word.equals("0") && !zero && !decimal) {
                        zero = true;
                        zeroStart = pre;
                    }
                    if (times) {
                        multi++;
                    } else if (decimal) {
                        post++;
                    } else {
                        pre++;
                    }
                    if (word.equals("0")) {
                        zeroEnd = pre + post;
                        action[i] = ZERO;
                    } else {
                        action[i] = DIGIT;
                    }
                }
                case ".", "D" -> {
                    if (decimal) {
                        throw syntax("multiple decimal points");
                    }
                    if (multi > 0) {
                        throw syntax("cannot use \"V\" and decimal point together");
                    }
                    decimal = true;
                    action[i] = POINT;
                }
                case ",", "G" -> action[i] = COMMA;
                case "FM" -> fill = true;
                case "S" -> {
                    if (lsign) {
                        throw syntax("cannot use \"S\" twice");
                    }
                    if (plus || minus || bracket) {
                        throw syntax("cannot use \"S\" and \"PL\"/\"MI\"/\"SG\"/\"PR\" together");
                    }
                    lsign = true;
                    if (decimal) {
                        lsignPost = true;
                    } else {
                        preAtLsign = pre;
                    }
                }
                case "MI" -> {
                    if (lsign) {
                        throw syntax("cannot use \"S\" and \"MI\" together");
                    }
                    minus = true;
                    action[i] = MINUS;
                }
                case "PL" -> {
                    if (lsign) {
                        throw syntax("cannot use \"S\" and \"PL\" together");
                    }
                    plus = true;
                    action[i] = PLUS;
                }
                case "SG" -> {
                    if (lsign) {
                        throw syntax("cannot use \"S\" and \"SG\" together");
                    }
                    plus = true;
                    minus = true;
                    action[i] = SIGN;
                }
                case "PR" -> {
                    if (lsign || plus || minus) {
                        throw syntax("cannot use \"PR\" and \"S\"/\"PL\"/\"MI\"/\"SG\" together");
                    }
                    bracket = true;
                }
                case "RN" -> {
                    roman = true;
                    action[i] = word.equals(PgNumberFormat.KEYWORDS.get(k)) ? ROMAN_UPPER : ROMAN_LOWER;
                }
                case "L" -> action[i] = CURRENCY;
                case "V" -> {
                    if (decimal) {
                        throw syntax("cannot use \"V\" and decimal point together");
                    }
                    times = true;
                }
                case "EEEE" -> {
                    if (eeee) {
                        throw syntax("cannot use \"EEEE\" twice");
                    }
                    if (fill || bracket || minus || plus || roman || times) {
                        throw syntax("\"EEEE\" is incompatible with other formats");
                    }
                    eeee = true;
                }
                case "TH" -> action[i] = PgNumberFormat.KEYWORDS.get(k).equals("TH") ? TH_UPPER : TH_LOWER;
                default -> {
                    // B, C, SP: accepted and ignored, as PostgreSQL does
                }
            }
        }
    }

    private static TributaryException syntax(String message) {
        return new TributaryException(SqlState.SYNTAX_ERROR, message);
    }

    /** {@code value} ({@code 1..3999}) as a roman numeral, {@code #} beyond, in the template's one RN place. */
    String roman(int value) {
        String numeral;
        if (value < 1 || value > 3999) {
            numeral = "#".repeat(15);
        } else {
            numeral = romanNumeral(value);
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < template.size(); i++) {
            if (action[i] == -1) {
                out.append(template.literal[i]);
            } else if (action[i] == ROMAN_UPPER || action[i] == ROMAN_LOWER) {
                String n = action[i] == ROMAN_LOWER ? numeral.toLowerCase(Locale.ROOT) : numeral;
                if (!fill) {
                    out.append(" ".repeat(Math.max(0, 15 - n.length())));
                }
                out.append(n);
            }
        }
        return out.toString();
    }

    private static String romanNumeral(int value) {
        String[][] digits = {
            {"", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"},
            {"", "X", "XX", "XXX", "XL", "L", "LX", "LXX", "LXXX", "XC"},
            {"", "C", "CC", "CCC", "CD", "D", "DC", "DCC", "DCCC", "CM"},
            {"", "M", "MM", "MMM"}
        };
        return digits[3][value / 1000]
                + digits[2][value / 100 % 10]
                + digits[1][value / 10 % 10]
                + digits[0][value % 10];
    }

    /**
     * The number written as {@code text} (optional minus, digits, optional point and exactly the
     * template's fraction digits) placed into the template with {@code pre} integer places.
     */
    String render(String text, int pre) {
        return render(text, pre, post);
    }

    /**
     * As {@link #render(String, int)} with {@code post} fraction digits in the text; fewer than
     * the template's (a float's digits are limited) cut the output where the digits run out, as
     * PostgreSQL's writes the end of its string there.
     */
    String render(String text, int pre, int post) {
        char sign = '+';
        String number = text;
        if (number.startsWith("-")) {
            sign = '-';
            number = number.substring(1);
        }
        int point = number.indexOf('.');
        int preLength = point < 0 ? number.length() : point;
        int preSpaces = 0;
        if (preLength < pre) {
            preSpaces = pre - preLength;
        } else if (preLength > pre) {
            number = "#".repeat(pre) + "." + "#".repeat(post);
        }
        return new Walk(number, sign, preSpaces, pre, post).run();
    }

    /** The state of one {@link #render}. */
    private final class Walk {
        private final String number;
        private final char sign;
        private final int preSpaces;
        private final StringBuilder out = new StringBuilder();
        private final boolean bracketOn;
        private final boolean lsignAfter;
        private int at;
        private int lastRelevant = -1;
        private boolean signWritten;
        private boolean digitsStarted;
        private int count;
        private int current;
        private final int post;
        /** Where the output ends when the digits ran out, or -1. */
        private int cut = -1;

        Walk(String number, char sign, int preSpaces, int pre, int post) {
            this.post = post;
            this.number = number;
            this.sign = sign;
            this.preSpaces = preSpaces;
            boolean br = bracket;
            if (plus || minus) {
                signWritten = !(plus && !minus);
            } else {
                if (sign != '-' && fill) {
                    br = false;
                }
                signWritten = sign == '+' && fill && !lsign;
            }
            bracketOn = br;
            lsignAfter = lsign && (lsignPost || pre == preAtLsign);
            count = post + pre - 1;
            if (fill && decimal) {
                int p = number.indexOf('.');
                if (p >= 0) {
                    lastRelevant = p;
                    for (int i = p + 1; i < number.length(); i++) {
                        if (number.charAt(i) != '0') {
                            lastRelevant = i;
                        }
                    }
                    // the digits up to the last 0 place stay, whether or not a 0 came before the point
                    if (zeroEnd > preSpaces) {
                        int lastZero = Math.min(number.length() - 1, zeroEnd - preSpaces);
                        if (lastRelevant < lastZero) {
                            lastRelevant = lastZero;
                        }
                    }
                }
            }
            if (!signWritten && preSpaces == 0) {
                count++;
            }
        }

        private char numberAt() {
            return at < number.length() ? number.charAt(at) : '\0';
        }

        private boolean predecimalSpace() {
            return !zero && at == 0 && !number.isEmpty() && number.charAt(0) == '0' && post != 0;
        }

        private boolean lastRelevantIsPoint() {
            return lastRelevant >= 0 && number.charAt(lastRelevant) == '.';
        }

        String run() {
            for (int i = 0; i < template.size(); i++) {
                switch (action[i]) {
                    case -1 -> out.append(template.literal[i]);
                    case DIGIT, ZERO, POINT -> digitPlace(action[i]);
                    case COMMA -> {
                        if (digitsStarted) {
                            out.append(',');
                        } else if (!fill) {
                            out.append(' ');
                        }
                    }
                    case CURRENCY -> out.append(' ');
                    case MINUS -> {
                        if (sign == '-') {
                            out.append('-');
                        } else if (!fill) {
                            out.append(' ');
                        }
                    }
                    case PLUS -> {
                        if (sign == '+') {
                            out.append('+');
                        } else if (!fill) {
                            out.append(' ');
                        }
                    }
                    case SIGN -> out.append(sign);
                    case TH_UPPER, TH_LOWER -> {
                        if (!number.startsWith("#") && sign != '-' && !decimal) {
                            FormatTemplate.appendOrdinal(out, thStart(), action[i] == TH_UPPER);
                        }
                    }
                    default -> {
                        // S, PR, V, B, C, FM: no output of their own
                    }
                }
            }
            return cut >= 0 ? out.substring(0, cut) : out.toString();
        }

        /** Where the digits written so far start, for an ordinal suffix read from the number itself. */
        private int thStart() {
            return Math.max(0, out.length() - number.length());
        }

        private void digitPlace(int kind) {
            if (!signWritten
                    && (current >= preSpaces || (zero && zeroStart == current))
                    && (!predecimalSpace() || lastRelevantIsPoint())) {
                if (lsign) {
                    if (!lsignAfter) {
                        out.append(sign);
                        signWritten = true;
                    }
                } else if (bracketOn) {
                    out.append(sign == '+' ? ' ' : '<');
                    signWritten = true;
                } else if (sign == '+') {
                    if (!fill) {
                        out.append(' ');
                    }
                    signWritten = true;
                } else {
                    out.append('-');
                    signWritten = true;
                }
            }
            if (current < preSpaces && (zeroStart > current || !zero)) {
                if (!fill) {
                    out.append(' ');
                }
            } else if (zero && current < preSpaces && zeroStart <= current) {
                out.append('0');
                digitsStarted = true;
            } else {
                if (numberAt() == '.') {
                    if (!lastRelevantIsPoint() || fill) {
                        out.append('.');
                    }
                } else if (lastRelevant >= 0 && at > lastRelevant && kind != ZERO) {
                    // a trailing zero FM drops
                } else if (predecimalSpace()) {
                    if (!fill) {
                        out.append(' ');
                    } else if (lastRelevantIsPoint()) {
                        out.append('0');
                    }
                } else if (numberAt() == '\0') {
                    if (cut < 0) {
                        cut = out.length();
                    }
                } else {
                    out.append(numberAt());
                    digitsStarted = true;
                }
                if (at < number.length()) {
                    at++;
                }
            }
            int end = count + (preSpaces > 0 ? 1 : 0) + (decimal ? 1 : 0);
            if (lastRelevant >= 0 && lastRelevant == at) {
                end = current;
            }
            if (current + 1 == end) {
                if (signWritten && bracketOn) {
                    out.append(sign == '+' ? ' ' : '>');
                } else if (lsign && lsignAfter) {
                    out.append(sign);
                }
            }
            current++;
        }
    }

    /**
     * The number in {@code text} as the template reads it: each digit place takes a digit if one
     * is there, the point place a point, a sign place or {@code S} a sign, a bracket a negative
     * value, separators their character; other template characters skip one character of input.
     * Returns the digits read with their sign and point, for BigDecimal.
     */
    String read(String text) {
        StringBuilder digits = new StringBuilder();
        boolean negative = false;
        int in = 0;
        int n = text.length();
        boolean pointRead = false;
        int postRead = 0;
        for (int i = 0; i < template.size() && in < n; i++) {
            int a = action[i];
            if (a == -1) {
                in += Character.charCount(text.codePointAt(in));
                continue;
            }
            if (a == DIGIT || a == ZERO || a == POINT) {
                if (digits.length() == 0 && !pointRead) {
                    // leading blanks and a sign before the first digit
                    while (in < n && text.charAt(in) == ' ') {
                        in++;
                    }
                    if (in < n && (text.charAt(in) == '-' || text.charAt(in) == '+' || text.charAt(in) == '<')) {
                        negative = text.charAt(in) != '+';
                        in++;
                    }
                    while (in < n && text.charAt(in) == ' ') {
                        in++;
                    }
                }
                if (in >= n) {
                    break;
                }
                char c = text.charAt(in);
                if (a == POINT) {
                    if (c == '.') {
                        pointRead = true;
                        digits.append('.');
                        in++;
                    }
                } else if (Character.isDigit(c)) {
                    if (!pointRead || postRead < post) {
                        digits.append(c);
                        if (pointRead) {
                            postRead++;
                        }
                    }
                    in++;
                }
                continue;
            }
            char c = text.charAt(in);
            switch (a) {
                case COMMA -> {
                    if (c == ',') {
                        in++;
                    }
                }
                case MINUS, SIGN, PLUS -> {
                    if (c == '-') {
                        negative = true;
                        in++;
                    } else if (c == '+') {
                        in++;
                    } else if (c == ' ' && a == MINUS) {
                        in++;
                    }
                }
                case CURRENCY -> {
                    if (c == ' ' || c == '$') {
                        in++;
                    }
                }
                default -> {
                    if (lsign && (c == '-' || c == '+')) {
                        negative = c == '-';
                        in++;
                    }
                }
            }
        }
        if (bracket && in < n && text.charAt(in) == '>') {
            negative = true;
        }
        if (lsign && in < n && (text.charAt(in) == '-' || text.charAt(in) == '+')) {
            negative = text.charAt(in) == '-';
        }
        if (digits.length() == 0 || digits.toString().equals(".")) {
            return digits.toString().isEmpty() ? "" : digits.toString();
        }
        return (negative ? "-" : "") + digits;
    }
}

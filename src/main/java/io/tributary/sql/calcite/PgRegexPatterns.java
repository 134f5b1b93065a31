package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * PostgreSQL's regular expressions (advanced REs, "AREs") and their flags, translated to Java
 * {@link Pattern}s that match what PostgreSQL matches for the constructs the two share: ARE-only
 * escapes ({@code \y \Y \m \M \Z \B \v}, {@code \b} as backspace) become their Java equivalents,
 * {@code [[:alpha:]]} classes become {@code \p{Alpha}}, a leading {@code ]} in a bracket is
 * literal, {@code $} ends the string only (Java also matches before a final newline), {@code .}
 * matches a newline unless newline-sensitive, and Java-only syntax (possessive quantifiers,
 * {@code \Q}, {@code \p}, {@code \h}, {@code \R}...) is an invalid regular expression (2201B), as
 * PostgreSQL has no such thing. Not the same: PostgreSQL matches the longest of several
 * alternatives at a position where Java takes the first that matches ({@code a|ab} against
 * {@code ab}); collating elements ({@code [.x.]}) and equivalence classes ({@code [=x=]}) and
 * basic or extended REs (flags {@code b}, {@code e}) are refused (0A000).
 *
 * <p>Called by {@link PgRegexpMatch} on the thread evaluating an expression; stateless.
 */
final class PgRegexPatterns {
    private static final Map<String, String> CLASSES = Map.ofEntries(
            Map.entry("alpha", "\\p{Alpha}"),
            Map.entry("digit", "\\p{Digit}"),
            Map.entry("alnum", "\\p{Alnum}"),
            Map.entry("upper", "\\p{Upper}"),
            Map.entry("lower", "\\p{Lower}"),
            Map.entry("space", "\\s\\x0B"),
            Map.entry("blank", "\\p{Blank}"),
            Map.entry("punct", "\\p{Punct}"),
            Map.entry("print", "\\p{Print}"),
            Map.entry("graph", "\\p{Graph}"),
            Map.entry("cntrl", "\\p{Cntrl}"),
            Map.entry("xdigit", "\\p{XDigit}"),
            Map.entry("word", "\\w"));

    private PgRegexPatterns() {}

    /**
     * {@code pattern} under {@code flags} ({@code null} for none) as a Java pattern.
     *
     * @throws TributaryException 22023 for an unknown flag or {@code g} (regexp_match has no global
     *     form), 2201B for a pattern PostgreSQL would not compile, 0A000 for what is not translated
     */
    static Pattern compile(String pattern, String flags) {
        int javaFlags = Pattern.UNIX_LINES;
        boolean newlineSensitive = false; // n, m, p: '.' and [^...] do not match a newline
        boolean lineAnchors = false; // n, m, w: ^ and $ match at newlines
        boolean expanded = false;
        boolean literal = false;
        for (int i = 0; flags != null && i < flags.length(); i++) {
            char f = flags.charAt(i);
            switch (f) {
                case 'i' -> javaFlags |= Pattern.CASE_INSENSITIVE;
                case 'c' -> javaFlags &= ~Pattern.CASE_INSENSITIVE;
                case 'n', 'm' -> {
                    newlineSensitive = true;
                    lineAnchors = true;
                }
                case 's' -> {
                    newlineSensitive = false;
                    lineAnchors = false;
                }
                case 'p' -> {
                    newlineSensitive = true;
                    lineAnchors = false;
                }
                case 'w' -> {
                    newlineSensitive = false;
                    lineAnchors = true;
                }
                case 'x' -> expanded = true;
                case 't' -> expanded = false;
                case 'q' -> literal = true;
                case 'g' ->
                    throw new TributaryException(
                            SqlState.INVALID_PARAMETER_VALUE, "regexp_match() does not support the \"global\" option");
                case 'b', 'e' ->
                    throw new TributaryException(
                            SqlState.FEATURE_NOT_SUPPORTED,
                            "regular expression option \"" + f + "\" (basic or extended REs) is not supported");
                default ->
                    throw new TributaryException(
                            SqlState.INVALID_PARAMETER_VALUE, "invalid regular expression option: \"" + f + "\"");
            }
        }
        String body = pattern;
        if (body.startsWith("***=")) {
            literal = true;
            body = body.substring(4);
        } else if (body.startsWith("***:")) {
            body = body.substring(4);
        }
        if (literal) {
            return Pattern.compile(body, (javaFlags & Pattern.CASE_INSENSITIVE) | Pattern.LITERAL);
        }
        javaFlags |= (newlineSensitive ? 0 : Pattern.DOTALL)
                | (lineAnchors ? Pattern.MULTILINE : 0)
                | (expanded ? Pattern.COMMENTS : 0);
        String translated = translate(body, newlineSensitive, lineAnchors, expanded);
        try {
            return Pattern.compile(translated, javaFlags);
        } catch (PatternSyntaxException e) {
            throw invalid(e.getDescription().toLowerCase(java.util.Locale.ROOT));
        }
    }

    /** The Java form of the ARE {@code re}; see the class comment for what changes. */
    private static String translate(String re, boolean newlineSensitive, boolean lineAnchors, boolean expanded) {
        StringBuilder out = new StringBuilder(re.length() + 16);
        boolean afterQuantifier = false;
        for (int i = 0; i < re.length(); i++) {
            char c = re.charAt(i);
            boolean quantifier = false;
            switch (c) {
                case '\\' -> {
                    if (i + 1 >= re.length()) {
                        throw invalid("invalid escape \\ sequence");
                    }
                    i = escape(re, i + 1, out);
                }
                case '[' -> i = bracket(re, i, out, newlineSensitive, expanded);
                case '$' -> out.append(lineAnchors ? "$" : "\\z");
                case '*', '?', '}' -> {
                    out.append(c);
                    // '*?', '??', '}?' are non-greedy in both; the '?' does not start a new quantifier
                    quantifier = !(c == '?' && afterQuantifier);
                }
                case '+' -> {
                    if (afterQuantifier) {
                        throw invalid("quantifier operand invalid"); // Java's possessive quantifier
                    }
                    out.append(c);
                    quantifier = true;
                }
                default -> out.append(c);
            }
            afterQuantifier = quantifier;
        }
        return out.toString();
    }

    /** Appends the escape whose letter is at {@code at}; returns the index of its last character. */
    private static int escape(String re, int at, StringBuilder out) {
        char e = re.charAt(at);
        switch (e) {
            case 'y' -> out.append("\\b");
            case 'Y' -> out.append("\\B");
            case 'm' -> out.append("\\b(?=\\w)");
            case 'M' -> out.append("\\b(?<=\\w)");
            case 'Z' -> out.append("\\z");
            case 'B' -> out.append("\\\\");
            case 'b' -> out.append("\\x08");
            case 'v' -> out.append("\\x0B");
            case '0' -> out.append("\\x00");
            case 'A', 'd', 'D', 's', 'S', 'w', 'W', 'a', 'e', 'f', 'n', 'r', 't', 'c', 'u', 'x' ->
                out.append('\\').append(e);
            default -> {
                if (Character.isLetter(e)) {
                    throw invalid("invalid escape \\ sequence");
                }
                out.append('\\').append(e); // a digit is a back reference, anything else itself
            }
        }
        return at;
    }

    /**
     * Appends the bracket expression starting at {@code open}; returns the index of its {@code ]}.
     * Java's nested classes and {@code &&} intersections are literal characters here, as in
     * PostgreSQL.
     */
    private static int bracket(String re, int open, StringBuilder out, boolean newlineSensitive, boolean expanded) {
        int i = open + 1;
        out.append('[');
        if (i < re.length() && re.charAt(i) == '^') {
            out.append(newlineSensitive ? "^\\n" : "^");
            i++;
        }
        if (i < re.length() && re.charAt(i) == ']') {
            out.append("\\]");
            i++;
        }
        for (; i < re.length(); i++) {
            char c = re.charAt(i);
            if (c == ']') {
                out.append(']');
                return i;
            }
            if (c == '[' && i + 1 < re.length() && ":.=".indexOf(re.charAt(i + 1)) >= 0) {
                char kind = re.charAt(i + 1);
                int close = re.indexOf(kind + "]", i + 2);
                if (close < 0) {
                    throw invalid("brackets [] not balanced");
                }
                if (kind != ':') {
                    throw new TributaryException(
                            SqlState.FEATURE_NOT_SUPPORTED,
                            "collating elements and equivalence classes in regular expressions are not supported");
                }
                String cls = CLASSES.get(re.substring(i + 2, close));
                if (cls == null) {
                    throw invalid("invalid character class");
                }
                out.append(cls);
                i = close + 1;
            } else if (c == '\\' && i + 1 < re.length()) {
                i = escape(re, i + 1, out);
            } else if (c == '[' || c == '&' || (expanded && Character.isWhitespace(c))) {
                out.append("\\x{").append(Integer.toHexString(c)).append('}');
            } else {
                out.append(c);
            }
        }
        throw invalid("brackets [] not balanced");
    }

    private static TributaryException invalid(String reason) {
        return new TributaryException(SqlState.INVALID_REGULAR_EXPRESSION, "invalid regular expression: " + reason);
    }
}

package io.tributary.server.http;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A strict parser of the Prometheus text exposition format 0.0.4, character by character after its
 * grammar: {@code # HELP} and {@code # TYPE} lines, samples {@code name{label="value",...} value
 * [timestamp]} with the format's escapes and special floats. It rejects what Prometheus would
 * reject: malformed names, labels or values, a TYPE after its samples or twice, a family's
 * samples split by another family's, samples whose name does not belong to their family's type
 * (histograms: {@code _bucket} with {@code le}, {@code _sum}, {@code _count}), histogram buckets
 * that are not cumulative or lack {@code +Inf} equal to {@code _count}. No metrics library in the
 * registry offers a text parser for Java; the test checks this one against the Prometheus
 * client's protobuf model of the same scrape.
 */
final class PrometheusTextParser {
    record Sample(String name, Map<String, String> labels, double value) {}

    /** One metric family: its TYPE (untyped when none was given), HELP and samples in order. */
    static final class Family {
        final String name;
        String type = "untyped";
        String help;
        final List<Sample> samples = new ArrayList<>();

        Family(String name) {
            this.name = name;
        }
    }

    private final String text;
    private int pos;
    private int line = 1;
    private final Map<String, Family> families = new LinkedHashMap<>();
    private final Set<String> closed = new HashSet<>();
    private Family current;

    private PrometheusTextParser(String text) {
        this.text = text;
    }

    /** The families of {@code text} by name, in order of appearance. */
    static Map<String, Family> parse(String text) {
        PrometheusTextParser p = new PrometheusTextParser(text);
        while (p.pos < text.length()) {
            p.line();
            p.line++;
        }
        p.families.values().forEach(PrometheusTextParser::checkHistogram);
        return p.families;
    }

    private void line() {
        if (peek() == '\n') {
            pos++;
            return;
        }
        if (peek() == '#') {
            pos++;
            skipBlanks();
            String keyword = word();
            if (keyword.equals("HELP") || keyword.equals("TYPE")) {
                expect(' ');
                skipBlanks();
                String name = metricName();
                Family f = family(name, true);
                expect(' ');
                String rest = restOfLine();
                if (keyword.equals("HELP")) {
                    f.help = unescape(rest);
                } else {
                    if (!f.samples.isEmpty() || !f.type.equals("untyped")) {
                        fail("TYPE of " + name + " after its samples or twice");
                    }
                    if (!Set.of("counter", "gauge", "histogram", "summary", "untyped")
                            .contains(rest)) {
                        fail("unknown type " + rest);
                    }
                    f.type = rest;
                }
            } else {
                restOfLine(); // a plain comment
            }
            return;
        }
        String name = metricName();
        Map<String, String> labels = new LinkedHashMap<>();
        if (peek() == '{') {
            pos++;
            skipBlanks();
            while (peek() != '}') {
                String label = labelName();
                skipBlanks();
                expect('=');
                skipBlanks();
                expect('"');
                if (labels.put(label, labelValue()) != null) {
                    fail("label " + label + " twice");
                }
                skipBlanks();
                if (peek() == ',') {
                    pos++;
                    skipBlanks();
                } else if (peek() != '}') {
                    fail("expected , or }");
                }
            }
            pos++;
        }
        expect(' ');
        skipBlanks();
        double value = number(token());
        skipBlanks();
        if (peek() != '\n' && peek() != 0) {
            Long.parseLong(token()); // timestamp in ms
            skipBlanks();
        }
        if (peek() == '\n') {
            pos++;
        } else if (peek() != 0) {
            fail("garbage after the sample");
        }
        Family f = family(familyOf(name), false);
        f.samples.add(new Sample(name, labels, value));
    }

    /** The family a sample name belongs to: the open family when its type allows the suffix. */
    private String familyOf(String name) {
        if (current != null) {
            String base = current.name;
            List<String> allowed = switch (current.type) {
                case "histogram" -> List.of(base + "_bucket", base + "_sum", base + "_count");
                case "summary" -> List.of(base, base + "_sum", base + "_count");
                case "counter" -> List.of(base, base + "_total");
                default -> List.of(base);
            };
            if (allowed.contains(name)) {
                return base;
            }
        }
        return name;
    }

    private Family family(String name, boolean metadata) {
        if (current != null && !current.name.equals(name)) {
            closed.add(current.name);
        }
        if (closed.contains(name)) {
            fail("family " + name + " appears again after another family");
        }
        Family f = families.computeIfAbsent(name, Family::new);
        if (!metadata && !f.type.equals("untyped") && f != current) {
            fail("sample of " + name + " outside its family");
        }
        current = f;
        return f;
    }

    private static void checkHistogram(Family f) {
        if (!f.type.equals("histogram")) {
            return;
        }
        Map<Map<String, String>, Double> previous = new LinkedHashMap<>();
        Map<Map<String, String>, Double> inf = new LinkedHashMap<>();
        Map<Map<String, String>, Double> counts = new LinkedHashMap<>();
        for (Sample s : f.samples) {
            Map<String, String> series = new LinkedHashMap<>(s.labels());
            String le = series.remove("le");
            if (s.name().endsWith("_bucket")) {
                if (le == null) {
                    throw new IllegalArgumentException(f.name + ": bucket without le");
                }
                Double before = previous.put(series, s.value());
                if (before != null && before > s.value()) {
                    throw new IllegalArgumentException(f.name + ": buckets not cumulative at le=" + le);
                }
                if (le.equals("+Inf")) {
                    inf.put(series, s.value());
                }
            } else if (s.name().endsWith("_count")) {
                counts.put(series, s.value());
            }
        }
        if (!inf.equals(counts)) {
            throw new IllegalArgumentException(f.name + ": +Inf buckets " + inf + " differ from counts " + counts);
        }
    }

    private String metricName() {
        int start = pos;
        char c = peek();
        if (!(Character.isLetter(c) && c < 128 || c == '_' || c == ':')) {
            fail("bad metric name start");
        }
        while (isNameChar(peek(), true)) {
            pos++;
        }
        return text.substring(start, pos);
    }

    private String labelName() {
        int start = pos;
        char c = peek();
        if (!(Character.isLetter(c) && c < 128 || c == '_')) {
            fail("bad label name start");
        }
        while (isNameChar(peek(), false)) {
            pos++;
        }
        return text.substring(start, pos);
    }

    private static boolean isNameChar(char c, boolean colon) {
        return c < 128 && (Character.isLetterOrDigit(c) || c == '_' || colon && c == ':');
    }

    /** A quoted label value after its opening quote, with \\, \" and \n escapes. */
    private String labelValue() {
        StringBuilder b = new StringBuilder();
        while (true) {
            char c = next();
            if (c == '"') {
                return b.toString();
            }
            if (c == '\n' || c == 0) {
                fail("unterminated label value");
            }
            if (c == '\\') {
                char e = next();
                b.append(
                        switch (e) {
                            case '\\' -> '\\';
                            case '"' -> '"';
                            case 'n' -> '\n';
                            default -> throw new IllegalArgumentException("line " + line + ": bad escape \\" + e);
                        });
            } else {
                b.append(c);
            }
        }
    }

    private static String unescape(String s) {
        return s.replace("\\n", "\n").replace("\\\\", "\\");
    }

    private double number(String token) {
        return switch (token) {
            case "+Inf", "Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            case "NaN" -> Double.NaN;
            default -> {
                try {
                    yield Double.parseDouble(token);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("line " + line + ": bad value " + token);
                }
            }
        };
    }

    private String token() {
        int start = pos;
        while (peek() != ' ' && peek() != '\t' && peek() != '\n' && peek() != 0) {
            pos++;
        }
        if (start == pos) {
            fail("expected a value");
        }
        return text.substring(start, pos);
    }

    private String word() {
        int start = pos;
        while (Character.isLetter(peek())) {
            pos++;
        }
        return text.substring(start, pos);
    }

    private String restOfLine() {
        int end = text.indexOf('\n', pos);
        if (end < 0) {
            end = text.length();
        }
        String rest = text.substring(pos, end);
        pos = Math.min(text.length(), end + 1);
        return rest;
    }

    private void skipBlanks() {
        while (peek() == ' ' || peek() == '\t') {
            pos++;
        }
    }

    private void expect(char c) {
        if (next() != c) {
            fail("expected '" + c + "'");
        }
    }

    private char peek() {
        return pos < text.length() ? text.charAt(pos) : 0;
    }

    private char next() {
        char c = peek();
        pos++;
        return c;
    }

    private void fail(String why) {
        throw new IllegalArgumentException("line " + line + ", column " + pos + ": " + why);
    }
}

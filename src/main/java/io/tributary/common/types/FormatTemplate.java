package io.tributary.common.types;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A template of PostgreSQL's formatting functions ({@code to_char}, {@code to_number},
 * {@code to_date}, {@code to_timestamp}) split into its nodes as PostgreSQL reads it: at each
 * position the longest keyword of the function's set (case as written in the set), optionally
 * preceded by a prefix modifier ({@code FM}, {@code TM}) and followed by a postfix one
 * ({@code TH}, {@code th}, {@code SP}) where the set has modifiers; text in double quotes is
 * literal (a backslash there quotes the next character); outside quotes a backslash is kept
 * unless it precedes a double quote. A prefix modifier not followed by a keyword is dropped, as
 * PostgreSQL drops it. Immutable; {@link #of} caches templates by their text, so a template
 * repeated on every row is read once.
 */
public final class FormatTemplate {
    /** Modifier bit: fill mode, no padding. */
    public static final int FM = 1;
    /** Modifier bit: ordinal suffix in upper case. */
    public static final int TH_UPPER = 2;
    /** Modifier bit: ordinal suffix in lower case. */
    public static final int TH_LOWER = 4;
    /** Modifier bit: translation mode (names not padded). */
    public static final int TM = 8;

    private static final int CACHED = 512;
    private static final Map<String, FormatTemplate> DATE_CACHE = new ConcurrentHashMap<>();
    private static final Map<String, FormatTemplate> NUMBER_CACHE = new ConcurrentHashMap<>();

    /** Per node: the keyword's index in the set, or -1 for a literal character. */
    final int[] keyword;
    /** Per node: modifier bits of a keyword. */
    final int[] modifiers;
    /** Per node: the literal text of a non-keyword node. */
    final String[] literal;

    private FormatTemplate(int[] keyword, int[] modifiers, String[] literal) {
        this.keyword = keyword;
        this.modifiers = modifiers;
        this.literal = literal;
    }

    /** How many nodes. */
    int size() {
        return keyword.length;
    }

    /**
     * The template {@code text} read with {@code keywords}; {@code dateModifiers} says whether the
     * set takes FM/TM prefixes and TH/th/SP suffixes (the date/time set; the number set has its own
     * FM and TH keywords).
     */
    static FormatTemplate of(String text, List<String> keywords, boolean dateModifiers) {
        Map<String, FormatTemplate> cache = dateModifiers ? DATE_CACHE : NUMBER_CACHE;
        FormatTemplate cached = cache.get(text);
        if (cached != null) {
            return cached;
        }
        FormatTemplate parsed = parse(text, keywords, dateModifiers);
        if (cache.size() >= CACHED) {
            cache.clear();
        }
        cache.put(text, parsed);
        return parsed;
    }

    private static FormatTemplate parse(String text, List<String> keywords, boolean dateModifiers) {
        List<Integer> kw = new ArrayList<>();
        List<Integer> mods = new ArrayList<>();
        List<String> lit = new ArrayList<>();
        int i = 0;
        int n = text.length();
        while (i < n) {
            int modifier = 0;
            if (dateModifiers && (text.startsWith("FM", i) || text.startsWith("fm", i))) {
                modifier = FM;
                i += 2;
            } else if (dateModifiers && (text.startsWith("TM", i) || text.startsWith("tm", i))) {
                modifier = TM;
                i += 2;
            }
            if (i >= n) {
                break;
            }
            int found = longest(text, i, keywords);
            if (found >= 0) {
                i += keywords.get(found).length();
                if (dateModifiers && i < n) {
                    if (text.startsWith("TH", i)) {
                        modifier |= TH_UPPER;
                        i += 2;
                    } else if (text.startsWith("th", i)) {
                        modifier |= TH_LOWER;
                        i += 2;
                    } else if (text.startsWith("SP", i) || text.startsWith("sp", i)) {
                        i += 2;
                    }
                }
                kw.add(found);
                mods.add(modifier);
                lit.add(null);
                continue;
            }
            char c = text.charAt(i);
            if (c == '"') {
                i++;
                while (i < n && text.charAt(i) != '"') {
                    if (text.charAt(i) == '\\' && i + 1 < n) {
                        i++;
                    }
                    int cp = text.codePointAt(i);
                    addLiteral(kw, mods, lit, new String(Character.toChars(cp)));
                    i += Character.charCount(cp);
                }
                i++;
                continue;
            }
            if (c == '\\' && i + 1 < n && text.charAt(i + 1) == '"') {
                i++;
            }
            int cp = text.codePointAt(i);
            addLiteral(kw, mods, lit, new String(Character.toChars(cp)));
            i += Character.charCount(cp);
        }
        int[] k = new int[kw.size()];
        int[] m = new int[kw.size()];
        for (int j = 0; j < k.length; j++) {
            k[j] = kw.get(j);
            m[j] = mods.get(j);
        }
        return new FormatTemplate(k, m, lit.toArray(new String[0]));
    }

    private static void addLiteral(List<Integer> kw, List<Integer> mods, List<String> lit, String s) {
        kw.add(-1);
        mods.add(0);
        lit.add(s);
    }

    /** The index of the longest keyword at {@code at}, or -1. */
    private static int longest(String text, int at, List<String> keywords) {
        int best = -1;
        for (int k = 0; k < keywords.size(); k++) {
            String word = keywords.get(k);
            if (text.startsWith(word, at)
                    && (best < 0 || word.length() > keywords.get(best).length())) {
                best = k;
            }
        }
        return best;
    }

    /** {@code number}'s text with PostgreSQL's ordinal suffix ({@code st nd rd th}) appended. */
    static void appendOrdinal(StringBuilder out, int start, boolean upper) {
        int len = out.length() - start;
        if (len == 0 || !Character.isDigit(out.charAt(out.length() - 1))) {
            return;
        }
        char last = out.charAt(out.length() - 1);
        String suffix;
        if (len > 1 && out.charAt(out.length() - 2) == '1') {
            suffix = "th";
        } else {
            suffix = switch (last) {
                case '1' -> "st";
                case '2' -> "nd";
                case '3' -> "rd";
                default -> "th";
            };
        }
        out.append(upper ? suffix.toUpperCase(java.util.Locale.ROOT) : suffix);
    }
}

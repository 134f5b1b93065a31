package io.tributary.slt;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Turns the text of a {@code .slt} file into records; see {@link SltRunner} for the format. */
final class SltParser {
    private final String file;
    private final List<String> lines;
    private final String engine;
    private int pos;

    private SltParser(String file, List<String> lines, String engine) {
        this.file = file;
        this.lines = lines;
        this.engine = engine;
    }

    /** The records of {@code lines}, without those that {@code skipif}/{@code onlyif} exclude for {@code engine}. */
    static List<SltRecord> parse(String file, List<String> lines, String engine) {
        return new SltParser(file, lines, engine).records();
    }

    private List<SltRecord> records() {
        List<SltRecord> records = new ArrayList<>();
        boolean skipNext = false;
        while (pos < lines.size()) {
            String header = lines.get(pos).strip();
            int line = ++pos;
            if (header.isEmpty() || header.startsWith("#")) {
                continue;
            }
            String[] words = header.split("\\s+");
            String keyword = words[0].toLowerCase(Locale.ROOT);
            switch (keyword) {
                case "halt" -> {
                    return records;
                }
                case "skipif" -> skipNext |= words.length > 1 && words[1].equalsIgnoreCase(engine);
                case "onlyif" -> skipNext |= words.length > 1 && !words[1].equalsIgnoreCase(engine);
                case "statement", "query" -> {
                    SltRecord record =
                            keyword.equals("statement") ? statement(line, header, words) : query(line, words);
                    if (!skipNext) {
                        records.add(record);
                    }
                    skipNext = false;
                }
                default -> throw error(line, "unknown record type: " + header);
            }
        }
        return records;
    }

    private SltRecord statement(int line, String header, String[] words) {
        if (words.length < 2) {
            throw error(line, "expected 'statement ok' or 'statement error'");
        }
        if (words[1].equalsIgnoreCase("ok") && words.length == 2) {
            return new SltRecord.Statement(line, block(line, false), null);
        }
        if (words[1].equalsIgnoreCase("error")) {
            return new SltRecord.Statement(line, block(line, false), errorSpec(line, header));
        }
        throw error(line, "expected 'statement ok' or 'statement error': " + header);
    }

    private SltRecord query(int line, String[] words) {
        if (words.length < 2) {
            throw error(line, "expected column types or 'error' after 'query'");
        }
        if (words[1].equalsIgnoreCase("error")) {
            return new SltRecord.Query(
                    line,
                    block(line, false),
                    0,
                    SltRecord.SortMode.NOSORT,
                    List.of(),
                    errorSpec(line, lines.get(line - 1)),
                    SltRecord.Retry.NONE);
        }
        if (!words[1].matches("[A-Za-z]+")) {
            throw error(line, "column types must be letters such as IT: " + words[1]);
        }
        SltRecord.SortMode sort = SltRecord.SortMode.NOSORT;
        int next = 2;
        if (words.length > next && !words[next].equalsIgnoreCase("retry")) {
            try {
                sort = SltRecord.SortMode.valueOf(words[next].toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw error(line, "unknown sort mode: " + words[next]);
            }
            next++;
        }
        SltRecord.Retry retry = SltRecord.Retry.NONE;
        if (words.length > next) {
            retry = retry(line, words, next);
        }
        String sql = block(line, true);
        List<String> expected = new ArrayList<>();
        if (pos > 0 && lines.get(pos - 1).strip().equals("----")) {
            while (pos < lines.size() && !lines.get(pos).isBlank()) {
                expected.add(lines.get(pos++).strip());
            }
        }
        return new SltRecord.Query(line, sql, words[1].length(), sort, List.copyOf(expected), null, retry);
    }

    /** {@code retry <n> backoff <number>(ms|s)} starting at {@code words[from]}. */
    private SltRecord.Retry retry(int line, String[] words, int from) {
        if (words.length != from + 4
                || !words[from].equalsIgnoreCase("retry")
                || !words[from + 2].equalsIgnoreCase("backoff")) {
            throw error(line, "expected 'retry <n> backoff <duration>' after the query's types and sort mode");
        }
        java.util.regex.Matcher d =
                java.util.regex.Pattern.compile("(\\d+)(ms|s)").matcher(words[from + 3]);
        if (!words[from + 1].matches("\\d+") || !d.matches()) {
            throw error(line, "retry needs a count and a duration such as 100ms or 1s");
        }
        long millis = Long.parseLong(d.group(1)) * (d.group(2).equals("s") ? 1000 : 1);
        return new SltRecord.Retry(Integer.parseInt(words[from + 1]), millis);
    }

    private SltError errorSpec(int line, String header) {
        String spec = header.strip().replaceFirst("(?i)^(statement|query)\\s+error", "");
        try {
            return SltError.parse(spec);
        } catch (IllegalArgumentException e) {
            throw error(line, e.getMessage());
        }
    }

    /** The SQL lines up to a blank line (or, for queries, up to and including the {@code ----} separator). */
    private String block(int line, boolean stopAtSeparator) {
        StringBuilder sql = new StringBuilder();
        while (pos < lines.size() && !lines.get(pos).isBlank()) {
            String text = lines.get(pos++);
            if (stopAtSeparator && text.strip().equals("----")) {
                break;
            }
            sql.append(sql.isEmpty() ? "" : "\n").append(text);
        }
        if (sql.isEmpty()) {
            throw error(line, "record has no SQL");
        }
        return sql.toString();
    }

    private IllegalArgumentException error(int line, String message) {
        return new IllegalArgumentException(file + ":" + line + ": " + message);
    }
}

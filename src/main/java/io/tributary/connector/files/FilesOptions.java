package io.tributary.connector.files;

import io.tributary.common.SqlState;
import io.tributary.connector.ConnectorException;
import io.tributary.connector.SourceContext;
import io.tributary.connector.SourceFormat;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The checked options of a {@code files} table.
 *
 * @param directory the directory whose files are read (not its subdirectories)
 * @param matcher the {@code match_pattern} glob, applied to file names
 * @param failOnError {@code on_error = 'fail'}: a malformed record stops the source
 */
record FilesOptions(Path directory, PathMatcher matcher, boolean failOnError, RecordFormat format) {
    static final String PATH = "path";
    static final String MATCH_PATTERN = "match_pattern";
    static final String ON_ERROR = "on_error";
    static final List<String> NAMES = List.of(PATH, MATCH_PATTERN, ON_ERROR);
    private static final String WITHOUT_HEADER = "without_header";
    private static final String DELIMITER = "delimiter";

    /**
     * @throws ConnectorException 42601 for an unknown or missing option or FORMAT clause, 22023
     *     for a bad value (including a path that is not a readable directory)
     */
    static FilesOptions parse(SourceContext context) {
        Map<String, String> options = context.options();
        unknown(options.keySet(), NAMES, "option", "the options of connector files are");
        String path = options.get(PATH);
        if (path == null) {
            throw new ConnectorException(
                    SqlState.SYNTAX_ERROR,
                    "connector files needs the option path (the options are: " + String.join(", ", NAMES) + ")");
        }
        Path directory;
        try {
            directory = Path.of(path).toAbsolutePath().normalize();
        } catch (InvalidPathException e) {
            throw bad(PATH, path, "not a valid path");
        }
        if (!Files.isDirectory(directory) || !Files.isReadable(directory)) {
            throw bad(PATH, path, "not a readable directory");
        }
        String pattern = options.getOrDefault(MATCH_PATTERN, "*");
        PathMatcher matcher;
        try {
            matcher = FileSystems.getDefault().getPathMatcher("glob:" + pattern);
        } catch (IllegalArgumentException e) {
            throw bad(MATCH_PATTERN, pattern, "not a valid glob pattern");
        }
        String onError = options.getOrDefault(ON_ERROR, "skip");
        if (!onError.equals("skip") && !onError.equals("fail")) {
            throw bad(ON_ERROR, onError, "expected skip or fail");
        }
        RowBuilder rows = new RowBuilder(context.columns(), context.primaryKey());
        return new FilesOptions(directory, matcher, onError.equals("fail"), format(context.format(), rows));
    }

    private static RecordFormat format(SourceFormat format, RowBuilder rows) {
        if (format == null) {
            throw new ConnectorException(
                    SqlState.SYNTAX_ERROR, "connector files needs FORMAT PLAIN ENCODE CSV or FORMAT PLAIN ENCODE JSON");
        }
        if (!format.format().equals("PLAIN")) {
            throw new ConnectorException(
                    SqlState.INVALID_PARAMETER_VALUE,
                    "connector files reads only FORMAT PLAIN, not " + format.format());
        }
        Map<String, String> options = format.options() == null ? Map.of() : format.options();
        switch (format.encode()) {
            case "CSV": {
                unknown(
                        options.keySet(),
                        List.of(WITHOUT_HEADER, DELIMITER),
                        "ENCODE CSV option",
                        "the options of ENCODE CSV are");
                String withoutHeader = options.getOrDefault(WITHOUT_HEADER, "false");
                if (!withoutHeader.equals("true") && !withoutHeader.equals("false")) {
                    throw bad(WITHOUT_HEADER, withoutHeader, "expected true or false");
                }
                String delimiter = options.getOrDefault(DELIMITER, ",");
                if (delimiter.length() != 1
                        || delimiter.charAt(0) > 127
                        || "\"\r\n".indexOf(delimiter.charAt(0)) >= 0) {
                    throw bad(DELIMITER, delimiter, "expected one ASCII character other than a quote or a line break");
                }
                return new CsvFormat(rows, withoutHeader.equals("false"), delimiter.charAt(0));
            }
            case "JSON":
                unknown(options.keySet(), List.of(), "ENCODE JSON option", "ENCODE JSON takes no options");
                return new JsonLinesFormat(rows);
            default:
                throw new ConnectorException(
                        SqlState.INVALID_PARAMETER_VALUE,
                        "connector files reads ENCODE CSV or ENCODE JSON, not " + format.encode());
        }
    }

    private static void unknown(Set<String> given, List<String> valid, String what, String listing) {
        Set<String> unknown = new TreeSet<>(given);
        valid.forEach(unknown::remove);
        if (!unknown.isEmpty()) {
            throw new ConnectorException(
                    SqlState.SYNTAX_ERROR,
                    "unknown " + what + " " + String.join(", ", unknown) + "; " + listing
                            + (valid.isEmpty() ? "" : ": " + String.join(", ", valid)));
        }
    }

    private static ConnectorException bad(String option, String value, String why) {
        return new ConnectorException(
                SqlState.INVALID_PARAMETER_VALUE,
                "invalid value for option " + option + ": \"" + value + "\" (" + why + ")");
    }
}

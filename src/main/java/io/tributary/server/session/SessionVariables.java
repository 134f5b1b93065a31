package io.tributary.server.session;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.PgTimeZone;
import io.tributary.meta.write.TransactionWrites;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The run-time settings of one session (SET / SHOW / RESET). Settings that change how values are
 * printed accept only what Tributary prints (ISO dates; any TimeZone PostgreSQL knows, see {@link
 * PgTimeZone}), so a client is never told a format it does not get. Session thread only.
 */
final class SessionVariables {
    /** A setting: its default, description, and whether clients are told of changes (ParameterStatus). */
    private record Setting(String defaultValue, String description, boolean reported) {}

    private static final Map<String, Setting> SETTINGS = new LinkedHashMap<>();

    static {
        define("application_name", "", "Name of the client application.", true);
        define("client_min_messages", "notice", "Least severe notices sent to the client.", false);
        define("client_encoding", "UTF8", "Client character set; only UTF8.", true);
        define("datestyle", "ISO, MDY", "Date output format; only ISO (with MDY, DMY or YMD order).", true);
        define("timezone", "UTC", "Sets the time zone for displaying and interpreting time stamps.", true);
        define("intervalstyle", "postgres", "Interval output format.", true);
        define("extra_float_digits", "1", "Accepted for compatibility; floats print shortest-exact.", false);
        define(
                "search_path",
                io.tributary.catalog.SearchPath.DEFAULT,
                "Schema search order for names that are not schema-qualified.",
                false);
        define("standard_conforming_strings", "on", "Backslashes in ordinary strings are literal.", true);
        define("integer_datetimes", "on", "Timestamps are 64-bit integers.", true);
        define("server_version", "15.0", "PostgreSQL version Tributary is compatible with.", true);
        define("server_version_num", "150000", "PostgreSQL version Tributary is compatible with, as a number.", false);
        define("server_encoding", "UTF8", "Server character set.", true);
        // every database is C (pg_database's datcollate and datctype say so)
        define("lc_collate", "C", "Shows the collation order locale.", false);
        define("lc_ctype", "C", "Shows the character classification and case conversion locale.", false);
        // read by pgjdbc's getImportedKeys/getExportedKeys and getMaxColumnNameLength
        define("max_index_keys", "32", "Shows the maximum number of index keys.", false);
        define("max_identifier_length", "63", "Shows the maximum identifier length.", false);
        define("is_superuser", "on", "Whether the user is a superuser.", true);
        define("statement_timeout", "0", "Cancels any statement running longer than this (57014); 0 disables.", false);
        define("lock_timeout", "0", "Accepted for compatibility; Tributary takes no table locks.", false);
        define(
                "idle_in_transaction_session_timeout",
                "0",
                "Accepted for compatibility; idle transactions are not ended.",
                false);
        define(
                "synchronize_seqscans",
                "on",
                "Accepted for compatibility; scans always start at the beginning of a table.",
                false);
        define("row_security", "on", "Accepted for compatibility; there are no row security policies.", false);
        // pg_dump's script sets the next four before it creates anything
        define("check_function_bodies", "on", "Accepted for compatibility; there are no function bodies.", false);
        define("xmloption", "content", "Accepted for compatibility; there is no xml type.", false);
        define("default_table_access_method", "heap", "Tables are stored in RocksDB; only heap is accepted.", false);
        define("default_tablespace", "", "Accepted for compatibility; only pg_default exists.", false);
        define(
                "transaction_max_rows",
                Integer.toString(TransactionWrites.MAX_ROWS),
                "The most rows a transaction block may change; the statement past it fails with 54000." + " At most "
                        + TransactionWrites.MAX_ROWS + ".",
                false);
        define(
                "transaction_isolation",
                "repeatable read",
                "A transaction block reads the snapshot of its first statement with its own writes on top;"
                        + " a statement outside one reads the last committed epoch. Every level asked for gives this.",
                false);
        define(
                "implicit_flush",
                "true",
                "DML returns once its epoch is committed (true) or once it is queued (false).",
                false);
        define(
                "background_ddl",
                "false",
                "CREATE MATERIALIZED VIEW returns once its job is registered (true) or once the view is complete (false).",
                false);
        define(
                "backfill_rate_limit",
                "default",
                "Rows per second per parallel unit a new view's backfill reads; 0 pauses; default = unlimited.",
                false);
        define(
                "sink_rate_limit",
                "default",
                "Rows per second a new sink writes (head and backfill together); 0 pauses; default = unlimited.",
                false);
        define(
                "remote_backfill",
                "false",
                "Whether a new materialized view's backfill asks for a remote worker (needs --jobs-url).",
                false);
        define(
                "fallback_to_local",
                "true",
                "Whether a new view's backfill that asked for a worker may run in the server instead.",
                false);
        define(
                "streaming_parallelism",
                "default",
                "Actors per parallel fragment of a new materialized view's job; default = one per core.",
                false);
    }

    private static void define(String name, String def, String description, boolean reported) {
        SETTINGS.put(name, new Setting(def, description, reported));
    }

    private final Map<String, String> values = new LinkedHashMap<>();
    /** How often {@code search_path} or {@code TimeZone} was set; only grows (see {@link #planSettingChanges}). */
    private long planSettingChanges;
    /** The zone {@code timezone} names, kept parsed for every timestamptz the session prints or reads. */
    private PgTimeZone timeZone = PgTimeZone.UTC;

    private final Map<String, String> changed = new LinkedHashMap<>();
    /** Defaults the server sets for every session (its command-line flags), over the built-in ones. */
    private final Map<String, String> serverDefaults;

    /** @param serverDefaults values RESET returns to instead of the built-in defaults, validated */
    SessionVariables(Map<String, String> startupParameters, Map<String, String> serverDefaults) {
        this.serverDefaults = Map.copyOf(serverDefaults);
        SETTINGS.forEach((k, s) -> values.put(k, defaultOf(k)));
        timeZone = PgTimeZone.parse(values.get("timezone"));
        values.put("timezone", timeZone.name());
        startupParameters.forEach((k, v) -> {
            String key = k.toLowerCase(Locale.ROOT);
            // a driver's own zone (pgjdbc sends the JVM's) is the session's, as in PostgreSQL
            if (SETTINGS.containsKey(key) && !key.equals("server_version")) {
                set(key, v);
            }
        });
        changed.clear();
    }

    String get(String name) {
        String key = canonical(name);
        return values.get(key);
    }

    private String defaultOf(String key) {
        String server = serverDefaults.get(key);
        return server != null ? server : SETTINGS.get(key).defaultValue();
    }

    /**
     * How many times {@code search_path} or {@code TimeZone} was set in this session. Plans resolve
     * names and {@code current_schema()} against the path and read timestamptz constants in the
     * zone, so a plan made before a change must not be reused after it.
     */
    long planSettingChanges() {
        return planSettingChanges;
    }

    /** The session's time zone, which timestamptz values are printed in and read in. */
    PgTimeZone timeZone() {
        return timeZone;
    }

    /** The session's statement timeout in milliseconds; 0 when disabled. */
    long statementTimeoutMillis() {
        return QueryLimits.parseMillis("statement_timeout", values.get("statement_timeout"));
    }

    /** The most rows a transaction block of this session may change (transaction_max_rows). */
    int transactionMaxRows() {
        return Integer.parseInt(values.get("transaction_max_rows"));
    }

    boolean implicitFlush() {
        return parseBool("implicit_flush", values.get("implicit_flush"));
    }

    boolean backgroundDdl() {
        return parseBool("background_ddl", values.get("background_ddl"));
    }

    /** Whether views this session creates ask for their backfill to run on a worker. */
    boolean remoteBackfill() {
        return parseBool("remote_backfill", values.get("remote_backfill"));
    }

    /** Whether views this session creates may be backfilled in the server when they asked for a worker. */
    boolean fallbackToLocal() {
        return parseBool("fallback_to_local", values.get("fallback_to_local"));
    }

    /** Backfill rows per second per parallel unit for views this session creates; -1 unlimited. */
    long backfillRateLimit() {
        String v = values.get("backfill_rate_limit");
        return v.equals("default") ? -1 : Long.parseLong(v);
    }

    /** Rows per second for sinks this session creates; -1 unlimited. */
    long sinkRateLimit() {
        String v = values.get("sink_rate_limit");
        return v.equals("default") ? -1 : Long.parseLong(v);
    }

    /**
     * Parses a backfill rate: a non-negative number of rows per second, or DEFAULT (unlimited, -1).
     *
     * @throws TributaryException 22023 for anything else
     */
    static long parseRate(String name, String v) {
        if (v.equalsIgnoreCase("default")) {
            return -1;
        }
        try {
            long n = Long.parseLong(v.trim());
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new TributaryException(
                SqlState.INVALID_PARAMETER_VALUE,
                "invalid value for parameter \"" + name + "\": \"" + v + "\"",
                0,
                null,
                "Use a number of rows per second (0 pauses), or DEFAULT for no limit.",
                null);
    }

    /** Actors per parallel fragment for views this session creates, or 0 for the default. */
    int streamingParallelism() {
        String v = values.get("streaming_parallelism");
        return v.equals("default") ? 0 : Integer.parseInt(v);
    }

    /** Sets a variable; null resets it to its default. */
    void set(String name, String value) {
        String key = canonical(name);
        if (key.equals("search_path") || key.equals("timezone")) {
            planSettingChanges++;
        }
        Setting setting = SETTINGS.get(key);
        String v = value == null ? defaultOf(key) : validate(key, value);
        if (key.equals("timezone")) {
            timeZone = PgTimeZone.parse(v);
            v = timeZone.name();
        }
        values.put(key, v);
        if (setting.reported()) {
            changed.put(displayName(key), v);
        }
    }

    void resetAll() {
        for (String key : SETTINGS.keySet()) {
            if (!values.get(key).equals(defaultOf(key))) {
                set(key, null);
            }
        }
    }

    /** Name, setting, description of every variable, for SHOW ALL. */
    List<Object[]> all() {
        return values.entrySet().stream()
                .map(e -> new Object[] {
                    e.getKey(), e.getValue(), SETTINGS.get(e.getKey()).description()
                })
                .toList();
    }

    /** Every variable as pg_settings shows it: name, value, default, description. */
    List<io.tributary.catalog.pg.PgSession.Setting> settings() {
        return values.entrySet().stream()
                .map(e -> new io.tributary.catalog.pg.PgSession.Setting(
                        e.getKey(),
                        e.getValue(),
                        SETTINGS.get(e.getKey()).defaultValue(),
                        SETTINGS.get(e.getKey()).description()))
                .toList();
    }

    /** The ParameterStatus values sent after authentication. */
    Map<String, String> reported() {
        Map<String, String> out = new LinkedHashMap<>();
        values.forEach((k, v) -> {
            if (SETTINGS.get(k).reported()) {
                out.put(displayName(k), v);
            }
        });
        return out;
    }

    Map<String, String> drainChanged() {
        Map<String, String> out = new LinkedHashMap<>(changed);
        changed.clear();
        return out;
    }

    /** The name PostgreSQL shows a setting under (ParameterStatus, SHOW's column): DateStyle, TimeZone ... */
    static String displayName(String key) {
        return switch (key) {
            case "datestyle" -> "DateStyle";
            case "timezone" -> "TimeZone";
            case "intervalstyle" -> "IntervalStyle";
            default -> key;
        };
    }

    private static String canonical(String name) {
        String key = name.toLowerCase(Locale.ROOT);
        if (!SETTINGS.containsKey(key)) {
            throw new TributaryException(
                    SqlState.UNDEFINED_OBJECT, "unrecognized configuration parameter \"" + name + "\"");
        }
        return key;
    }

    private static String validate(String key, String raw) {
        String v = raw.trim();
        switch (key) {
            case "server_version",
                    "server_version_num",
                    "server_encoding",
                    "lc_collate",
                    "lc_ctype",
                    "integer_datetimes",
                    "is_superuser",
                    "max_index_keys",
                    "max_identifier_length" ->
                throw new TributaryException(
                        SqlState.CANT_CHANGE_RUNTIME_PARAM, "parameter \"" + key + "\" cannot be changed");
            case "client_encoding" -> {
                String norm = v.replace("-", "").replace("_", "").toUpperCase(Locale.ROOT);
                if (!norm.equals("UTF8") && !norm.equals("UNICODE")) {
                    throw TributaryException.notSupported("client_encoding " + v + " (only UTF8)");
                }
                return "UTF8";
            }
            case "datestyle" -> {
                String style = v.toUpperCase(Locale.ROOT);
                if (style.contains("SQL") || style.contains("POSTGRES") || style.contains("GERMAN")) {
                    throw TributaryException.notSupported("DateStyle " + v + " (only ISO)");
                }
                // ISO output is the same in every field order; the order is kept for SHOW, as PostgreSQL does
                return style.contains("DMY") ? "ISO, DMY" : style.contains("YMD") ? "ISO, YMD" : "ISO, MDY";
            }
            case "timezone" -> {
                return PgTimeZone.parse(raw).name();
            }
            case "intervalstyle" -> {
                if (!v.equalsIgnoreCase("postgres")) {
                    throw TributaryException.notSupported("IntervalStyle " + v + " (only postgres)");
                }
                return "postgres";
            }
            case "standard_conforming_strings" -> {
                if (!parseBool(key, v)) {
                    throw TributaryException.notSupported("standard_conforming_strings off");
                }
                return "on";
            }
            case "implicit_flush", "background_ddl", "remote_backfill", "fallback_to_local" -> {
                return Boolean.toString(parseBool(key, v));
            }
            case "xmloption" -> {
                String option = v.toLowerCase(Locale.ROOT);
                if (!option.equals("content") && !option.equals("document")) {
                    throw new TributaryException(
                            SqlState.INVALID_PARAMETER_VALUE,
                            "invalid value for parameter \"" + key + "\": \"" + v + "\"",
                            0,
                            null,
                            "Available values: content, document.",
                            null);
                }
                return option;
            }
            case "default_table_access_method" -> {
                if (!v.equals("heap")) {
                    throw new TributaryException(
                            SqlState.INVALID_PARAMETER_VALUE,
                            "invalid value for parameter \"" + key + "\": \"" + v + "\"",
                            0,
                            "Table access method \"" + v + "\" does not exist.",
                            null,
                            null);
                }
                return v;
            }
            case "default_tablespace" -> {
                if (!v.isEmpty() && !v.equals("pg_default")) {
                    throw new TributaryException(
                            SqlState.INVALID_PARAMETER_VALUE,
                            "invalid value for parameter \"" + key + "\": \"" + v + "\"",
                            0,
                            "Tablespace \"" + v + "\" does not exist.",
                            null,
                            null);
                }
                return v;
            }
            case "synchronize_seqscans", "row_security", "check_function_bodies" -> {
                return parseBool(key, v) ? "on" : "off";
            }
            case "lock_timeout", "idle_in_transaction_session_timeout" -> {
                return QueryLimits.formatMillis(QueryLimits.parseMillis(key, v));
            }
            case "backfill_rate_limit", "sink_rate_limit" -> {
                long rate = parseRate(key, v);
                return rate < 0 ? "default" : Long.toString(rate);
            }
            case "transaction_max_rows" -> {
                try {
                    int n = Integer.parseInt(v);
                    if (n >= 1 && n <= TransactionWrites.MAX_ROWS) {
                        return Integer.toString(n);
                    }
                } catch (NumberFormatException e) {
                    // reported below
                }
                throw new TributaryException(
                        SqlState.INVALID_PARAMETER_VALUE,
                        "invalid value for parameter \"" + key + "\": \"" + v + "\"",
                        0,
                        null,
                        "Use a number of rows from 1 to " + TransactionWrites.MAX_ROWS + ".",
                        null);
            }
            case "streaming_parallelism" -> {
                if (v.equalsIgnoreCase("default") || v.equals("0")) {
                    return "default";
                }
                try {
                    int n = Integer.parseInt(v);
                    if (n >= 1 && n <= 256) {
                        return Integer.toString(n);
                    }
                } catch (NumberFormatException e) {
                    // reported below
                }
                throw new TributaryException(
                        SqlState.INVALID_PARAMETER_VALUE,
                        "invalid value for parameter \"" + key + "\": \"" + v + "\"",
                        0,
                        null,
                        "Use a number of actors from 1 to 256, or DEFAULT.",
                        null);
            }
            case "statement_timeout" -> {
                return QueryLimits.formatMillis(QueryLimits.parseMillis(key, v));
            }
            case "client_min_messages" -> {
                String level = v.toLowerCase(Locale.ROOT);
                if (!NOTICE_LEVELS.contains(level.startsWith("debug") ? "debug" : level)) {
                    throw new TributaryException(
                            SqlState.INVALID_PARAMETER_VALUE,
                            "invalid value for parameter \"" + key + "\": \"" + v + "\"",
                            0,
                            null,
                            "Available values: debug5, debug4, debug3, debug2, debug1, log, notice, warning, error.",
                            null);
                }
                return level;
            }
            case "extra_float_digits" -> {
                try {
                    Integer.parseInt(v);
                } catch (NumberFormatException e) {
                    throw new TributaryException(
                            SqlState.INVALID_PARAMETER_VALUE,
                            "invalid value for parameter \"" + key + "\": \"" + v + "\"");
                }
                return v;
            }
            default -> {
                return v;
            }
        }
    }

    /** Notice severities from least to most severe, as client_min_messages orders them (debugN as one). */
    private static final List<String> NOTICE_LEVELS = List.of("debug", "log", "notice", "warning", "error");

    /** Whether a notice of {@code severity} (NOTICE, WARNING ...) reaches the client under client_min_messages. */
    boolean sendsNotice(String severity) {
        String threshold = values.get("client_min_messages");
        int min = NOTICE_LEVELS.indexOf(threshold.startsWith("debug") ? "debug" : threshold);
        int level = NOTICE_LEVELS.indexOf(severity.toLowerCase(Locale.ROOT));
        return level < 0 || level >= min;
    }

    private static boolean parseBool(String key, String v) {
        return switch (v.toLowerCase(Locale.ROOT)) {
            case "true", "on", "yes", "1", "t" -> true;
            case "false", "off", "no", "0", "f" -> false;
            default ->
                throw new TributaryException(
                        SqlState.INVALID_PARAMETER_VALUE, "parameter \"" + key + "\" requires a Boolean value");
        };
    }
}

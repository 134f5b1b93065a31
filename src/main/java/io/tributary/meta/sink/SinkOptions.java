package io.tributary.meta.sink;

import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.SinkDef;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads the {@code WITH (...)} options of CREATE SINK (RisingWave's JDBC sink options) into a
 * {@link SinkDef.Target}, checking names and values but not the target itself ({@link
 * TargetTable} does that). Stateless; any thread.
 */
public final class SinkOptions {
    static final String CREATE_TABLE = "create_table_if_not_exists";
    private static final String FORCE_APPEND_ONLY = "force_append_only";
    private static final Set<String> VALID = new TreeSet<>(List.of(
            "connector",
            "jdbc.url",
            "user",
            "password",
            "table.name",
            "schema.name",
            "type",
            "primary_key",
            "snapshot",
            "backfill.alias",
            "backfill.remote",
            "backfill.fallback_to_local",
            FORCE_APPEND_ONLY,
            CREATE_TABLE));

    private SinkOptions() {}

    /**
     * The target of sink {@code sinkName} over {@code relation}.
     *
     * @throws TributaryException 42601 for an unknown or missing option (naming the valid ones),
     *     22023 for a bad value, 42P10 for an upsert whose key is not the relation's key
     */
    public static SinkDef.Target parse(String sinkName, TableDef relation, Map<String, String> options) {
        for (String name : options.keySet()) {
            if (!VALID.contains(name)) {
                throw new TributaryException(
                        SqlState.SYNTAX_ERROR,
                        "unknown sink option \"" + name + "\"; the valid options are " + String.join(", ", VALID));
            }
        }
        String connector = require(options, "connector");
        if (!connector.equalsIgnoreCase("jdbc")) {
            throw new TributaryException(
                    SqlState.INVALID_PARAMETER_VALUE,
                    "unknown sink connector \"" + connector + "\"; the only sink connector is 'jdbc'");
        }
        String url = require(options, "jdbc.url");
        if (!url.startsWith("jdbc:postgresql:")) {
            throw new TributaryException(
                    SqlState.INVALID_PARAMETER_VALUE,
                    "jdbc.url must be a PostgreSQL URL (jdbc:postgresql://host:port/database), not \"" + url + "\"");
        }
        String type = options.getOrDefault("type", "upsert").toLowerCase(Locale.ROOT);
        if (!type.equals("upsert") && !type.equals("append-only")) {
            throw new TributaryException(
                    SqlState.INVALID_PARAMETER_VALUE, "type must be 'upsert' or 'append-only', not '" + type + "'");
        }
        boolean upsert = type.equals("upsert");
        boolean forceAppendOnly = bool(options, FORCE_APPEND_ONLY, false);
        if (upsert && forceAppendOnly) {
            throw new TributaryException(
                    SqlState.INVALID_PARAMETER_VALUE,
                    "force_append_only = 'true' applies only to type = 'append-only'");
        }
        List<String> key = upsert ? primaryKey(relation, options.get("primary_key")) : List.of();
        return new SinkDef.Target(
                url,
                options.get("user"),
                options.get("password"),
                options.getOrDefault("schema.name", "public"),
                require(options, "table.name"),
                upsert,
                key,
                bool(options, "snapshot", true),
                options.getOrDefault("backfill.alias", sinkName + "_backfill"),
                bool(options, "backfill.remote", false),
                bool(options, "backfill.fallback_to_local", true),
                forceAppendOnly);
    }

    /** Whether the target table is to be created when missing. */
    public static boolean createTable(Map<String, String> options) {
        return bool(options, CREATE_TABLE, false);
    }

    /**
     * The upsert key: the relation's primary key, which must be visible (rows are matched by it in
     * the target); {@code primary_key}, when given, must name the same columns.
     */
    private static List<String> primaryKey(TableDef relation, String given) {
        List<String> key = new ArrayList<>();
        boolean hidden = false;
        for (int i : relation.primaryKey()) {
            ColumnDef c = relation.columns().get(i);
            hidden |= c.hidden();
            key.add(c.name());
        }
        if (hidden) {
            throw new TributaryException(
                    SqlState.INVALID_COLUMN_REFERENCE,
                    "an upsert sink needs a primary key, and " + describe(relation)
                            + " has none the target can hold; "
                            + (relation.isInternal()
                                    ? "select the GROUP BY columns or the key of the relation selected from,"
                                    : "declare one,")
                            + " or use type = 'append-only'");
        }
        if (given != null) {
            List<String> named = new ArrayList<>();
            for (String part : given.split(",")) {
                named.add(part.strip().toLowerCase(Locale.ROOT));
            }
            if (!new TreeSet<>(named).equals(new TreeSet<>(key)) || named.size() != key.size()) {
                throw new TributaryException(
                        SqlState.INVALID_COLUMN_REFERENCE,
                        "primary_key '" + given + "' must be the primary key of " + describe(relation) + " ("
                                + String.join(", ", key) + ")");
            }
        }
        return key;
    }

    /** How errors name the relation: a sink's hidden query view is "the sink's query". */
    private static String describe(TableDef relation) {
        return relation.isInternal() ? "the sink's query" : "\"" + relation.name() + "\"";
    }

    private static String require(Map<String, String> options, String name) {
        String v = options.get(name);
        if (v == null || v.isEmpty()) {
            throw new TributaryException(
                    SqlState.SYNTAX_ERROR,
                    "CREATE SINK needs the option " + name + "; the valid options are " + String.join(", ", VALID));
        }
        return v;
    }

    private static boolean bool(Map<String, String> options, String name, boolean byDefault) {
        String v = options.get(name);
        if (v == null) {
            return byDefault;
        }
        return switch (v.toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default ->
                throw new TributaryException(
                        SqlState.INVALID_PARAMETER_VALUE, name + " must be 'true' or 'false', not '" + v + "'");
        };
    }
}

package io.tributary.connector.postgres;

import io.tributary.common.SqlState;
import io.tributary.connector.ConnectorException;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The {@code postgres-cdc} options of a table, checked. Option names are a public contract (they
 * follow RisingWave's). Immutable.
 *
 * @param slotName the replication slot to create, or null to derive it from the table id
 */
record CdcOptions(
        String hostname,
        int port,
        String username,
        String password,
        String database,
        String schema,
        String table,
        String slotName) {
    static final List<String> NAMES = List.of(
            "hostname", "port", "username", "password", "database.name", "schema.name", "table.name", "slot.name");
    private static final List<String> REQUIRED = List.of("hostname", "username", "database.name", "table.name");
    /** PostgreSQL's rule for slot names; 59 rather than 63 characters so that {@code <slot>_pub} fits too. */
    private static final Pattern SLOT_NAME = Pattern.compile("[a-z0-9_]{1,59}");

    /**
     * @throws ConnectorException 42601 for an unknown or missing option, 22023 for a bad value; both
     *     name the valid options
     */
    static CdcOptions parse(Map<String, String> options) {
        for (String name : options.keySet()) {
            if (!NAMES.contains(name)) {
                throw new ConnectorException(
                        SqlState.SYNTAX_ERROR,
                        "unknown option \"" + name + "\" for connector postgres-cdc; " + validOptions());
            }
        }
        for (String name : REQUIRED) {
            if (options.get(name) == null) {
                throw new ConnectorException(
                        SqlState.SYNTAX_ERROR,
                        "connector postgres-cdc needs option \"" + name + "\"; " + validOptions());
            }
            if (options.get(name).isBlank()) {
                throw badValue(name, options.get(name), "it must not be empty");
            }
        }
        String slot = options.get("slot.name");
        if (slot != null && !SLOT_NAME.matcher(slot).matches()) {
            throw badValue("slot.name", slot, "a slot name has 1 to 59 lower-case letters, digits or underscores");
        }
        String schema = options.getOrDefault("schema.name", "public");
        if (schema.isBlank()) {
            throw badValue("schema.name", schema, "it must not be empty");
        }
        return new CdcOptions(
                options.get("hostname"),
                port(options.get("port")),
                options.get("username"),
                options.get("password"),
                options.get("database.name"),
                schema,
                options.get("table.name"),
                slot);
    }

    private static int port(String text) {
        if (text == null) {
            return 5432;
        }
        try {
            int port = Integer.parseInt(text.trim());
            if (port >= 1 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // reported below with the valid range
        }
        throw badValue("port", text, "a port is a number from 1 to 65535");
    }

    private static ConnectorException badValue(String name, String value, String why) {
        return new ConnectorException(
                SqlState.INVALID_PARAMETER_VALUE,
                "invalid value \"" + value + "\" for option \"" + name + "\" of connector postgres-cdc: " + why + "; "
                        + validOptions());
    }

    private static String validOptions() {
        return "the options are: " + String.join(", ", NAMES) + " (required: " + String.join(", ", REQUIRED) + ")";
    }

    /** The table as a quoted SQL name, {@code "schema"."table"}. */
    String quotedTable() {
        return quote(schema) + "." + quote(table);
    }

    /** Where, for messages: {@code host:port/database}. */
    String where() {
        return hostname + ":" + port + "/" + database;
    }

    static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }
}

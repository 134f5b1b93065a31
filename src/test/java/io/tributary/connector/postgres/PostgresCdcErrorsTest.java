package io.tributary.connector.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.common.types.DataType;
import io.tributary.connector.ConnectorException;
import io.tributary.connector.SourceColumn;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Bad options, unreachable servers and tables that do not fit fail at the first open with the
 * right SQLSTATE and a message a person understands, and leave nothing behind upstream.
 */
class PostgresCdcErrorsTest {
    private static final int TABLE_ID = 9501;
    private static final String TABLE = "errors_" + TABLE_ID;
    private static final List<SourceColumn> COLUMNS =
            List.of(new SourceColumn("id", DataType.INTEGER), new SourceColumn("v", DataType.TEXT));

    @BeforeAll
    static void create() throws Exception {
        UpstreamPostgres.execute(
                "DROP TABLE IF EXISTS " + TABLE,
                "DROP TABLE IF EXISTS " + TABLE + "_nokey",
                "CREATE TABLE " + TABLE + " (id int PRIMARY KEY, v text, n numeric)",
                "CREATE TABLE " + TABLE + "_nokey (id int, v text)");
    }

    @AfterAll
    static void drop() throws Exception {
        UpstreamPostgres.execute("DROP TABLE IF EXISTS " + TABLE, "DROP TABLE IF EXISTS " + TABLE + "_nokey");
    }

    private static ConnectorException failsWith(
            String sqlState, Map<String, String> options, List<SourceColumn> columns, int... primaryKey) {
        ConnectorException e = assertThrows(
                ConnectorException.class,
                () -> new PostgresCdcConnector()
                        .open(UpstreamPostgres.context(TABLE_ID, columns, primaryKey, options, null)));
        assertEquals(sqlState, e.sqlState(), e.getMessage());
        return e;
    }

    @Test
    void unknownAndMissingOptionsNameTheValidOnes() throws Exception {
        Map<String, String> options = UpstreamPostgres.options(TABLE);
        options.put("table", TABLE);
        ConnectorException unknown = failsWith("42601", options, COLUMNS, 0);
        assertTrue(
                unknown.getMessage().contains("\"table\"")
                        && unknown.getMessage().contains("table.name, slot.name"),
                unknown.getMessage());

        options = UpstreamPostgres.options(TABLE);
        options.remove("table.name");
        ConnectorException missing = failsWith("42601", options, COLUMNS, 0);
        assertTrue(missing.getMessage().contains("needs option \"table.name\""), missing.getMessage());
    }

    @Test
    void badValuesAre22023() throws Exception {
        Map<String, String> options = UpstreamPostgres.options(TABLE);
        options.put("port", "54x");
        assertTrue(failsWith("22023", options, COLUMNS, 0).getMessage().contains("1 to 65535"));
        options = UpstreamPostgres.options(TABLE);
        options.put("slot.name", "Has-Dashes");
        failsWith("22023", options, COLUMNS, 0);
        options = UpstreamPostgres.options(TABLE);
        options.put("hostname", " ");
        failsWith("22023", options, COLUMNS, 0);
    }

    @Test
    void unreachableServerOrMissingDatabaseIs08001() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        Map<String, String> options = UpstreamPostgres.options(TABLE);
        options.put("port", Integer.toString(closedPort));
        ConnectorException e = failsWith("08001", options, COLUMNS, 0);
        assertTrue(
                e.getMessage().startsWith("postgres-cdc cannot connect to PostgreSQL at localhost:" + closedPort),
                e.getMessage());

        options = UpstreamPostgres.options(TABLE);
        options.put("database.name", "no_such_db");
        assertTrue(failsWith("08001", options, COLUMNS, 0).getMessage().contains("no_such_db"));
    }

    @Test
    void tablesThatDoNotFitAreRefused() throws Exception {
        failsWith("42P01", UpstreamPostgres.options("no_such_table"), COLUMNS, 0);
        ConnectorException column = failsWith(
                "42703",
                UpstreamPostgres.options(TABLE),
                List.of(new SourceColumn("id", DataType.INTEGER), new SourceColumn("missing", DataType.TEXT)),
                0);
        assertTrue(column.getMessage().contains("its columns are: id, v, n"), column.getMessage());
        ConnectorException type = failsWith(
                "42804",
                UpstreamPostgres.options(TABLE),
                List.of(new SourceColumn("id", DataType.INTEGER), new SourceColumn("n", DataType.INTEGER)),
                0);
        assertTrue(type.getMessage().contains("declared integer but upstream it is numeric"), type.getMessage());
        failsWith("42P16", UpstreamPostgres.options(TABLE), COLUMNS);
        failsWith("42P16", UpstreamPostgres.options(TABLE), COLUMNS, 1);
        ConnectorException noKey = failsWith("42P16", UpstreamPostgres.options(TABLE + "_nokey"), COLUMNS, 0);
        assertTrue(noKey.getMessage().contains("has no primary key"), noKey.getMessage());
        assertNothingLeft();
    }

    @Test
    void anExistingSlotIsReportedAndThePublicationRemoved() throws Exception {
        UpstreamPostgres.execute("SELECT pg_create_logical_replication_slot('taken_slot', 'pgoutput')");
        try {
            Map<String, String> options = UpstreamPostgres.options(TABLE);
            options.put("slot.name", "taken_slot");
            ConnectorException e = failsWith("42710", options, COLUMNS, 0);
            assertTrue(e.getMessage().contains("cannot create replication slot \"taken_slot\""), e.getMessage());
            assertEquals(
                    "0",
                    UpstreamPostgres.queryOne("SELECT count(*) FROM pg_publication WHERE pubname = 'taken_slot_pub'"));
        } finally {
            UpstreamPostgres.execute("SELECT pg_drop_replication_slot('taken_slot')");
        }
    }

    private static void assertNothingLeft() throws Exception {
        assertEquals(
                "0",
                UpstreamPostgres.queryOne(
                        "SELECT count(*) FROM pg_replication_slots WHERE slot_name = 'tributary_" + TABLE_ID + "'"));
        assertEquals(
                "0",
                UpstreamPostgres.queryOne(
                        "SELECT count(*) FROM pg_publication WHERE pubname = 'tributary_" + TABLE_ID + "_pub'"));
    }
}

package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Everyday expressions whose answers Calcite's own semantics got wrong, each run on Tributary
 * and on an embedded PostgreSQL with the same table: the rows (as {@code getString} texts) or
 * the SQLSTATE of the failure must be the same. Both are reached as user {@code postgres}, so
 * {@code current_user} compares too.
 */
class ValueSemanticsDifferentialTest {
    private static final List<String> SETUP = List.of(
            "CREATE TABLE vs (id INT PRIMARY KEY, v INT, big BIGINT, s TEXT, d DATE)",
            "INSERT INTO vs VALUES (1, 5, 9223372036854775807, 'x', DATE '2024-03-03'), "
                    + "(2, 2147483647, 1, NULL, DATE '2024-03-04')");
    private static final List<String> QUERIES = List.of(
            "SELECT extract(dow FROM DATE '2024-03-03')",
            "SELECT id, extract(dow FROM d), extract(isodow FROM d) FROM vs ORDER BY id",
            "SELECT date_part('dow', DATE '2024-03-09')",
            "SELECT concat('a', NULL, 'b')",
            "SELECT concat(NULL)",
            "SELECT id, concat(s, '-', v) FROM vs ORDER BY id",
            "SELECT current_user",
            "SELECT 2147483647 + 1",
            "SELECT -2147483647 - 2",
            "SELECT 65536 * 65536",
            "SELECT v + 1 FROM vs WHERE id = 2",
            "SELECT big + 1 FROM vs WHERE id = 1",
            "SELECT v * 2 FROM vs WHERE id = 1",
            // integer remainders, evaluated in long arithmetic whatever the operand types
            "SELECT id, big % 7, v % 3, v % big, big % v, -v % 4, id::smallint % 3::smallint FROM vs ORDER BY id",
            "SELECT -7 % 3, 7 % -3, 9223372036854775807 % 2147483647",
            "SELECT v % 0 FROM vs WHERE id = 1",
            "SELECT big % 0 FROM vs WHERE id = 1",
            "SELECT sum(x % 1000), count(*) FROM generate_series(1, 5000) AS s(x)",
            "SELECT 2 ^ 10",
            "SELECT 2 ^ 10 * 2, -2 ^ 2",
            "SELECT '1e400'::float8",
            "SELECT '-1e400'::float8",
            "SELECT '1e308'::float8 > 0",
            "SELECT id FROM vs WHERE v = '5'::int",
            "SELECT id FROM vs WHERE v = '5'::int AND s = 'x'::text",
            "SELECT 1 + '2'::int * 3",
            "SELECT (1 + 2)::text",
            "SELECT 10 - '2'::int - 3, -'5'::int, (1 + 2) * '3'::int",
            "SELECT current_schema, current_schema(), current_database()",
            "SELECT date_trunc('month', TIMESTAMP '2024-03-15 10:11:12'), date_trunc('hour', TIMESTAMP"
                    + " '2024-03-15 10:11:12'), date_trunc('quarter', TIMESTAMP '2024-08-15 10:11:12'),"
                    + " date_trunc('year', TIMESTAMP '2024-08-15 10:11:12'), date_trunc('day', NULL::timestamp)",
            // interval constants in PostgreSQL's input syntax; timestamp +/- interval
            "SELECT INTERVAL '1 day', INTERVAL '2 hours 30 minutes', '1 day'::interval, INTERVAL '90 minutes'",
            "SELECT INTERVAL '3 months', INTERVAL '1 year 2 months', INTERVAL '-1 day', INTERVAL '1 week'",
            "SELECT INTERVAL '1.5 seconds', INTERVAL '1 day 02:03:04', '45 minutes'::interval",
            "SELECT INTERVAL 'nonsense'",
            "SELECT TIMESTAMP '2024-03-15 10:20:30' + INTERVAL '1 hour', TIMESTAMP '2024-03-15 10:20:30' - INTERVAL '2 days'",
            // catalog lookups as tools write them, unqualified and qualified
            "SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                    + " WHERE n.nspname = 'public' ORDER BY 1",
            "SELECT attname, format_type(atttypid, atttypmod), attnotnull FROM pg_catalog.pg_attribute"
                    + " WHERE attrelid = 'vs'::regclass AND attnum > 0 ORDER BY attnum",
            "SELECT pg_get_indexdef(indexrelid), indisprimary FROM pg_index WHERE indrelid = 'public.vs'::regclass",
            "SELECT conname, contype, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'vs'::regclass",
            "SELECT pg_get_userbyid(relowner), pg_table_is_visible(oid) FROM pg_class WHERE relname = 'vs'",
            "SELECT 'nosuch'::regclass",
            "SELECT table_name, column_name, ordinal_position, data_type, is_nullable, numeric_precision,"
                    + " character_maximum_length FROM information_schema.columns WHERE table_schema = 'public'"
                    + " ORDER BY ordinal_position",
            "SELECT constraint_name, table_name, column_name, ordinal_position"
                    + " FROM information_schema.key_column_usage WHERE table_schema = 'public'",
            "SELECT constraint_type, count(*) FROM information_schema.table_constraints"
                    + " WHERE table_schema = 'public' GROUP BY constraint_type ORDER BY 1",
            "SELECT table_name, table_type FROM information_schema.tables WHERE table_schema = 'public'",
            "SELECT schemaname, tablename, hasindexes FROM pg_tables WHERE schemaname = 'public'");

    private static Connection pg;
    private static InProcessTributary tributary;
    private static Connection trib;

    @BeforeAll
    static void start() throws Exception {
        pg = DifferentialPostgres.freshDev();
        tributary = InProcessTributary.temporary("values-diff-", 20, "postgres", "", 60);
        trib = tributary.connection;
        for (Connection c : List.of(pg, trib)) {
            try (Statement s = c.createStatement()) {
                for (String sql : SETUP) {
                    s.execute(sql);
                }
            }
        }
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pg, tributary);
    }

    @Test
    void answersLikePostgres() {
        List<String> mismatches =
                StatementOutcome.mismatches(pg, trib, QUERIES, ValueSemanticsDifferentialTest::outcome);
        assertEquals(List.of(), mismatches);
    }

    /** The rows as texts, or {@code ERROR <sqlstate>}. */
    private static String outcome(Connection c, String sql) {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            List<String> rows = new ArrayList<>();
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= n; i++) {
                    row.add(rs.getString(i));
                }
                rows.add(row.toString());
            }
            return rows.toString();
        } catch (SQLException e) {
            return "ERROR " + e.getSQLState();
        }
    }
}

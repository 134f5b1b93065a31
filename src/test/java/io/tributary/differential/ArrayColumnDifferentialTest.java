package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.StringReader;
import java.io.StringWriter;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;

/**
 * Array columns on Tributary and on an embedded PostgreSQL: CREATE TABLE with {@code type[]} and
 * {@code type ARRAY} of each supported element type, INSERT of array text and {@code ARRAY[...]}
 * (NULL elements, empty arrays, elements needing quotes), SELECT compared with each column's type
 * name as the RowDescription OID names it ({@code _text}, {@code _int4} ...), the operators and
 * functions over array columns, UPDATE, the catalog's view of the columns, COPY TO and FROM in text
 * and CSV, pgjdbc's {@code getArray} and {@code createArrayOf} parameters, and materialized views
 * selecting and filtering array columns kept through writes.
 */
class ArrayColumnDifferentialTest {
    private static final List<String> SETUP = List.of(
            "CREATE TABLE ta (id INT PRIMARY KEY, tags TEXT[], nums INTEGER ARRAY, note VARCHAR(10)[])",
            "CREATE TABLE tk (id INT PRIMARY KEY, s2 INT2[], b INT8[], f FLOAT8[], n NUMERIC[], bo BOOL[],"
                    + " d DATE[], ts TIMESTAMP[], tz TIMESTAMPTZ[], vc VARCHAR(5)[])",
            "CREATE TABLE tp (k INT[] PRIMARY KEY, v INT)");

    /** Writes and reads, compared by rows with type names, update counts or SQLSTATEs. */
    private static final List<String> STATEMENTS = List.of(
            "INSERT INTO ta VALUES (1, '{a,b}', '{1,2,3}', '{x}')",
            "INSERT INTO ta VALUES (2, ARRAY['x y', 'c,d', 'q\"r', NULL, '', 'NULL', 'a\\b', '{x}'], ARRAY[4, NULL],"
                    + " NULL)",
            "INSERT INTO ta VALUES (3, NULL, '{}', '{}'), (4, '{}', ARRAY[-5, 6], ARRAY['n'])",
            "INSERT INTO ta VALUES (5, '{ \"sp ace\" , NULL,plain}', '{ 7 ,8}', '{\"\"}'), (6, ARRAY['a'], NULL, NULL)",
            "INSERT INTO ta VALUES (7, '{a', NULL, NULL)",
            "INSERT INTO ta VALUES (7, NULL, '{1,x}', NULL)",
            "INSERT INTO ta VALUES (7, NULL, NULL, '{abcdefghijkl}')",
            "INSERT INTO tk VALUES (1, '{1,-2}', '{9000000000}', '{1.5,-0.25,NaN}', '{1.10,2,-3.000}', '{t,f,NULL}',"
                    + " '{2024-01-02,1999-12-31}', '{\"2024-01-02 03:04:05.5\"}', '{\"2024-01-02 03:04:05+00\"}',"
                    + " '{\"a b\",c}')",
            "INSERT INTO tk VALUES (2, ARRAY[3], ARRAY[4], ARRAY[2.5], ARRAY[1.5, 2], ARRAY[true],"
                    + " '{2024-03-04}', NULL, NULL, ARRAY['v'])",
            "INSERT INTO tk (id) VALUES (3)",
            "SELECT * FROM ta ORDER BY id",
            "SELECT * FROM tk ORDER BY id",
            "SELECT id FROM ta WHERE 'a' = ANY (tags) ORDER BY id",
            "SELECT id FROM ta WHERE 6 = ANY (nums) OR 'x y' = ANY (tags) ORDER BY id",
            "SELECT id FROM ta WHERE tags @> ARRAY['a'] ORDER BY id",
            "SELECT id FROM ta WHERE tags @> ARRAY['a', 'b'] ORDER BY id",
            "SELECT id FROM ta WHERE nums @> ARRAY[1, 3] ORDER BY id",
            "SELECT id FROM ta WHERE tags <@ ARRAY['a', 'b', 'z'] ORDER BY id",
            "SELECT id FROM ta WHERE tags && ARRAY['b', 'x y'] ORDER BY id",
            "SELECT id, tags[1] AS t1, tags[2] AS t2, nums[3] AS n3, tags[0] AS t0 FROM ta ORDER BY id",
            "SELECT id, cardinality(tags) AS c, array_length(nums, 1) AS l FROM ta ORDER BY id",
            "SELECT id, unnest(tags) AS t FROM ta WHERE id <= 2 ORDER BY id, t",
            "SELECT ta.id, u.t FROM ta, unnest(ta.tags) AS u(t) WHERE ta.id IN (1, 5) ORDER BY 1, 2",
            "SELECT id, tags || ARRAY['z'] AS b, ARRAY[0] || nums AS c FROM ta ORDER BY id",
            "SELECT id, 4 = ANY (nums) AS a, 5 = ANY (nums) AS b, 5 <> ALL (nums) AS c FROM ta ORDER BY id",
            "SELECT id, array_append(nums, 0) AS a, array_position(tags, 'b') AS p FROM ta WHERE id = 1",
            "SELECT count(*) FROM ta WHERE nums IS NULL",
            "SELECT id, COALESCE(nums, ARRAY[1, NULL]) AS a, COALESCE(nums, nums) AS b, COALESCE(tags, '{z}') AS c,"
                    + " COALESCE(NULL, nums, ARRAY[7]) AS d FROM ta ORDER BY id",
            "SELECT id, array_ndims(nums) AS nd, array_dims(nums) AS d, array_length(nums, 2) AS l2,"
                    + " array_upper(nums, 1) AS u1, array_upper(nums, 2) AS u2, array_lower(nums, 1) AS l1,"
                    + " array_lower(nums, 0) AS l0, array_ndims(tags) AS t FROM ta ORDER BY id",
            "UPDATE ta SET tags = ARRAY['z', NULL] WHERE id = 1",
            "UPDATE ta SET nums = '{10,20}', note = '{u}' WHERE id = 3",
            "UPDATE ta SET tags = array_append(tags, 'w') WHERE id = 4",
            "SELECT * FROM ta ORDER BY id",
            "SELECT id FROM tk WHERE n @> ARRAY[2.0] ORDER BY id",
            // no operator between arrays of two number types: numeric[] = integer[], bigint[] = integer[] ...
            "SELECT ARRAY[1.5] = ARRAY[1]",
            "SELECT ARRAY[1] = ARRAY[1::bigint]",
            "SELECT id FROM tk WHERE n = ARRAY[1]",
            "SELECT id FROM tk WHERE n = '{1}'::int[]",
            "SELECT id, n <> ARRAY[1] AS a FROM tk",
            "SELECT id FROM tk WHERE n < ARRAY[1]",
            "SELECT id FROM tk WHERE n >= ARRAY[1]",
            "SELECT id FROM tk WHERE n IS DISTINCT FROM ARRAY[1]",
            "SELECT id FROM tk WHERE n @> ARRAY[1]",
            "SELECT id FROM tk WHERE n <@ ARRAY[1, 2]",
            "SELECT id FROM tk WHERE n && ARRAY[1]",
            "SELECT id FROM tk WHERE n IN (ARRAY[1], ARRAY[2])",
            "SELECT id FROM tk WHERE n NOT IN (ARRAY[1])",
            "SELECT id FROM tk WHERE n = ANY (SELECT nums FROM ta)",
            "SELECT tk.id FROM tk JOIN ta ON tk.n = ta.nums",
            "SELECT id FROM tk WHERE b = ARRAY[4]",
            "SELECT id FROM tk WHERE b @> ARRAY[4]",
            "SELECT id FROM tk WHERE s2 = ARRAY[3]",
            "SELECT id FROM tk WHERE f = ARRAY[2.5]",
            "CREATE MATERIALIZED VIEW mixed_arrays AS SELECT id FROM tk WHERE n = ARRAY[1]",
            // one type on both sides, or array text, which takes the other side's type
            "SELECT id FROM tk WHERE b = ARRAY[4::bigint] OR n = ARRAY[1.5, 2] OR s2 = '{3}' ORDER BY id",
            "SELECT id FROM tk WHERE b = '{4}' OR n @> '{2}' OR f && '{2.5}' ORDER BY id",
            "SELECT id FROM tk WHERE n IN (ARRAY[1.5, 2], '{1}') ORDER BY id",
            "SELECT id, CASE WHEN id = 3 THEN ARRAY[1.5, 2.5] ELSE n END AS a, COALESCE(n, ARRAY[1, NULL]) AS b,"
                    + " COALESCE(n, ARRAY[0.5]) AS c, CASE WHEN id = 1 THEN n ELSE ARRAY[4, 5] END AS e,"
                    + " COALESCE(s2, ARRAY[1, NULL]) AS f FROM tk ORDER BY id",
            "SET TIME ZONE 'America/New_York'",
            "SELECT id, d, ts, tz, ARRAY[tz[1]] AS a FROM tk ORDER BY id",
            "SET TIME ZONE 'Asia/Tokyo'",
            "SELECT id, d, ts, tz, d[1] AS d1 FROM tk ORDER BY id",
            "SET TIME ZONE 'UTC'",
            "SELECT id, d[1] AS d1, ts[1] AS t1, bo[3] AS b3, n[1] AS n1 FROM tk ORDER BY id",
            "SELECT a.attname, a.atttypid, format_type(a.atttypid, a.atttypmod) AS t FROM pg_attribute a"
                    + " WHERE a.attrelid = 'ta'::regclass AND a.attnum > 0 ORDER BY a.attnum",
            "SELECT a.attname, a.atttypid, format_type(a.atttypid, a.atttypmod) AS t FROM pg_attribute a"
                    + " WHERE a.attrelid = 'tk'::regclass AND a.attnum > 0 ORDER BY a.attnum",
            "SELECT column_name, data_type, udt_name FROM information_schema.columns WHERE table_name = 'tk'"
                    + " ORDER BY ordinal_position",
            "INSERT INTO tp VALUES ('{1,2}', 1), ('{1}', 2), (ARRAY[1, NULL], 3), ('{}', 4), ('{2}', 5)",
            "INSERT INTO tp VALUES (ARRAY[1, 2], 6)",
            "SELECT * FROM tp ORDER BY k",
            "SELECT v FROM tp WHERE k = '{1,2}' OR k = ARRAY[2] ORDER BY v",
            "UPDATE tp SET k = array_append(k, 9) WHERE v = 2",
            "SELECT * FROM tp ORDER BY v",
            "DELETE FROM ta WHERE tags @> ARRAY['z']",
            "SELECT id FROM ta ORDER BY id");

    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.forViews("array-column-diff-");
        pair.setUpAlike(SETUP);
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    @Test
    void statementsAnswerAsPostgres() {
        List<String> mismatches =
                StatementOutcome.mismatches(pair.pg, pair.tributary.connection, STATEMENTS, (c, sql) -> {
                    // catalog columns are compared by value: Tributary's name and oid columns are text and int8
                    boolean catalog = sql.contains("pg_attribute") || sql.contains("information_schema");
                    return catalog ? StatementOutcome.withoutTypes(c, sql) : StatementOutcome.withTypeNames(c, sql);
                });
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    /**
     * What Tributary does not do is 0A000, never a wrong answer or an internal error: a nested array
     * constant (Tributary stores one-dimensional arrays only), arrays of element types it does not
     * store, and array text beside a computed array in one column of a multi-row VALUES.
     */
    @Test
    void unsupportedArraysAreRefused() {
        for (String sql : List.of(
                "INSERT INTO ta VALUES (70, NULL, '{{1,2},{3,4}}', NULL)",
                "CREATE TABLE tu (id INT PRIMARY KEY, u UUID[])",
                "CREATE TABLE tu (id INT PRIMARY KEY, i INTERVAL[])",
                "INSERT INTO ta (id, tags) VALUES (71, '{a}'), (72, ARRAY[now()::text])")) {
            assertEquals("ERROR 0A000", StatementOutcome.of(pair.tributary.connection, sql, false), sql);
        }
        assertEquals("[]", StatementOutcome.of(pair.tributary.connection, "SELECT id FROM ta WHERE id >= 70", false));
    }

    /** COPY FROM STDIN in text and CSV, then COPY TO STDOUT in both, give PostgreSQL's rows and bytes. */
    @Test
    void copyRoundTripsAsPostgres() throws Exception {
        String create = "CREATE TABLE tc (id INT PRIMARY KEY, tags TEXT[], nums INT[], d DATE[])";
        String text = "1\t{a,\"b c\",\"q\\\\\"r\",NULL,\"\"}\t{1,NULL,3}\t{2024-01-02}\n"
                + "2\t\\N\t{}\t\\N\n"
                + "3\t{\"x,y\",\"a\\\\\\\\b\"}\t{-4}\t{2024-01-02,NULL}\n";
        String csv = "4,\"{\"\"p q\"\",NULL}\",\"{5,6}\",{2024-02-03}\n5,,{},\n";
        List<String> mismatches = new ArrayList<>();
        for (Connection c : List.of(pair.pg, pair.tributary.connection)) {
            StatementOutcome.of(c, create, false);
        }
        String[] loaded = new String[2];
        String[] outText = new String[2];
        String[] outCsv = new String[2];
        String[] rows = new String[2];
        List<Connection> both = List.of(pair.pg, pair.tributary.connection);
        for (int i = 0; i < 2; i++) {
            var copy = both.get(i).unwrap(PGConnection.class).getCopyAPI();
            long a = copy.copyIn("COPY tc FROM STDIN", new StringReader(text));
            long b = copy.copyIn("COPY tc FROM STDIN (FORMAT csv)", new StringReader(csv));
            loaded[i] = a + "+" + b;
            StringWriter w = new StringWriter();
            copy.copyOut("COPY (SELECT * FROM tc ORDER BY id) TO STDOUT", w);
            outText[i] = w.toString();
            w = new StringWriter();
            copy.copyOut("COPY (SELECT * FROM tc ORDER BY id) TO STDOUT (FORMAT csv)", w);
            outCsv[i] = w.toString();
            rows[i] = StatementOutcome.withTypeNames(both.get(i), "SELECT * FROM tc ORDER BY id");
        }
        for (String[] compared : List.of(loaded, outText, outCsv, rows)) {
            if (!compared[0].equals(compared[1])) {
                mismatches.add("postgres:  " + compared[0] + "\n  tributary: " + compared[1]);
            }
        }
        // COPY tc TO STDOUT of the whole table: its rows in any order
        for (String format : List.of("", " (FORMAT csv)")) {
            String[] lines = new String[2];
            for (int i = 0; i < 2; i++) {
                StringWriter w = new StringWriter();
                both.get(i).unwrap(PGConnection.class).getCopyAPI().copyOut("COPY tc TO STDOUT" + format, w);
                String[] sorted = w.toString().split("\n");
                Arrays.sort(sorted);
                lines[i] = String.join("\n", sorted);
            }
            if (!lines[0].equals(lines[1])) {
                mismatches.add(
                        "COPY tc TO STDOUT" + format + "\n  postgres:  " + lines[0] + "\n  tributary: " + lines[1]);
            }
        }
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    /** pgjdbc reads array columns with getArray and binds createArrayOf parameters as on PostgreSQL. */
    @Test
    void jdbcArraysAsPostgres() throws SQLException {
        String create = "CREATE TABLE tj (id INT PRIMARY KEY, tags TEXT[], nums INT[], f FLOAT8[])";
        String[] read = new String[2];
        List<Connection> both = List.of(pair.pg, pair.tributary.connection);
        for (int i = 0; i < 2; i++) {
            Connection c = both.get(i);
            StatementOutcome.of(c, create, false);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO tj VALUES (?, ?, ?, ?)")) {
                ps.setInt(1, 1);
                ps.setArray(2, c.createArrayOf("text", new Object[] {"a", "b c", null, "q\"r"}));
                ps.setArray(3, c.createArrayOf("int4", new Object[] {1, null, -3}));
                ps.setArray(4, c.createArrayOf("float8", new Object[] {1.5, -2.0}));
                ps.executeUpdate();
                ps.setInt(1, 2);
                ps.setArray(2, c.createArrayOf("text", new Object[] {}));
                ps.setNull(3, java.sql.Types.ARRAY);
                ps.setObject(4, null);
                ps.executeUpdate();
            }
            StringBuilder sb = new StringBuilder();
            try (PreparedStatement ps = c.prepareStatement("SELECT * FROM tj WHERE id >= ? ORDER BY id")) {
                ps.setInt(1, 0);
                // six runs: from its fifth pgjdbc names the statement on the server and reads binary results
                for (int run = 0; run < 6; run++) {
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            sb.append(rs.getInt(1));
                            for (int col = 2; col <= 4; col++) {
                                Array a = rs.getArray(col);
                                sb.append(" | ")
                                        .append(rs.getMetaData().getColumnTypeName(col))
                                        .append(' ')
                                        .append(
                                                a == null
                                                        ? "null"
                                                        : a.getBaseTypeName()
                                                                + Arrays.toString((Object[]) a.getArray()));
                            }
                            sb.append('\n');
                        }
                    }
                }
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT id FROM tj WHERE tags && ? ORDER BY id")) {
                ps.setArray(1, c.createArrayOf("text", new Object[] {"b c", "zz"}));
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        sb.append("overlap ").append(rs.getInt(1)).append('\n');
                    }
                }
            }
            read[i] = sb.toString();
        }
        assertEquals(read[0], read[1]);
    }

    /** Materialized views selecting array columns and filtering on them follow writes as PostgreSQL's queries answer. */
    @Test
    void viewsOverArrayColumnsAreMaintained() {
        for (String sql : List.of(
                "CREATE TABLE tv (id INT PRIMARY KEY, tags TEXT[], nums INT[], g INT)",
                "INSERT INTO tv VALUES (1, '{a,b}', '{1,2}', 1), (2, '{c}', NULL, 1), (3, NULL, '{}', 2)")) {
            pair.both(sql);
        }
        List<PostgresPair.FollowedView> views = List.of(
                new PostgresPair.FollowedView("v_all", "SELECT id, tags, nums FROM tv", "id"),
                new PostgresPair.FollowedView("v_any", "SELECT id, tags FROM tv WHERE 'a' = ANY (tags)", "id"),
                new PostgresPair.FollowedView("v_has", "SELECT id, nums FROM tv WHERE nums @> ARRAY[2]", "id"),
                new PostgresPair.FollowedView(
                        "v_fun", "SELECT id, tags[1] AS first, cardinality(nums) AS n FROM tv", "id"));
        List<String> mismatches = pair.viewMismatches(
                views,
                List.of(
                        "INSERT INTO tv VALUES (4, ARRAY['a', NULL, 'x y'], ARRAY[2, 3], 2)",
                        "UPDATE tv SET tags = '{z}', nums = ARRAY[2] WHERE id = 1",
                        "UPDATE tv SET tags = ARRAY['a'] WHERE id = 3",
                        "DELETE FROM tv WHERE id = 4",
                        "INSERT INTO tv VALUES (5, '{\"q,r\",a}', '{5,2}', 3)"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }
}

package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;

/**
 * PostgreSQL's uuid type, run in order on Tributary and on an embedded PostgreSQL: input forms and
 * their errors, casts, comparisons and ORDER BY over many random uuids (half of them with the top
 * bit set, where a signed comparison would differ), GROUP BY, DISTINCT, joins, materialized views
 * keyed and grouped by uuid, COPY in and out, and pgjdbc's {@code setObject}/{@code getObject}.
 * {@code gen_random_uuid()} is random, so only its form, its distinctness and its refusal in views
 * are checked.
 */
class UuidDifferentialTest {
    private static final int RANDOM_ROWS = 300;

    private static final List<String> STATEMENTS = List.of(
            // every input form PostgreSQL reads, printed in its canonical form
            "SELECT 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid AS a, 'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'::uuid AS b,"
                    + " '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}'::uuid AS c, 'a0eebc999c0b4ef8bb6d6bb9bd380a11'::uuid AS d,"
                    + " 'a0ee-bc99-9c0b-4ef8-bb6d-6bb9-bd38-0a11'::uuid AS e, '{a0eebc999c0b4ef8bb6d6bb9bd380a11}'::uuid AS f,"
                    + " CAST('a0eebc99-9c0b4ef8-bb6d6bb9-bd380a11' AS uuid) AS g",
            "SELECT 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1'::uuid AS a",
            "SELECT 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a111'::uuid AS a",
            "SELECT 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a1g'::uuid AS a",
            "SELECT 'a0eebc99--9c0b-4ef8-bb6d-6bb9bd380a11'::uuid AS a",
            "SELECT 'a0e-ebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid AS a",
            "SELECT '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid AS a",
            "SELECT 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}'::uuid AS a",
            "SELECT ' a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid AS a",
            "SELECT 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11-'::uuid AS a",
            "SELECT ''::uuid AS a",
            "CREATE TABLE u (id uuid PRIMARY KEY, k uuid, v INT)",
            "INSERT INTO u VALUES ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '00000000-0000-0000-0000-000000000001', 1),"
                    + " ('{8A0EEBC9-9C0B-4EF8-BB6D-6BB9BD380A11}', 'ffffffff-ffff-ffff-ffff-ffffffffffff', 2),"
                    + " ('0000eebc99c0b4ef8bb6d6bb9bd380a1', '00000000-0000-0000-0000-000000000001', 3),"
                    + " ('7fffffff-ffff-ffff-ffff-ffffffffffff', NULL, 4), ('80000000-0000-0000-0000-000000000000', NULL, 5)",
            "INSERT INTO u VALUES ('not a uuid', NULL, 6)",
            "INSERT INTO u VALUES ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', NULL, 7)",
            "SELECT * FROM u ORDER BY id",
            "SELECT * FROM u ORDER BY id DESC",
            "SELECT id, v FROM u ORDER BY k NULLS FIRST, id DESC",
            "SELECT id FROM u ORDER BY id LIMIT 2 OFFSET 1",
            // comparisons: with a constant of any form, of two columns, and the casts both ways
            "SELECT v FROM u WHERE id = 'A0EEBC999C0B4EF8BB6D6BB9BD380A11' ORDER BY v",
            "SELECT v FROM u WHERE id <> 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11' ORDER BY v",
            "SELECT v FROM u WHERE id > '7fffffff-ffff-ffff-ffff-ffffffffffff' ORDER BY v",
            "SELECT v FROM u WHERE id <= '{80000000-0000-0000-0000-000000000000}'::uuid ORDER BY v",
            "SELECT v FROM u WHERE id < k ORDER BY v",
            "SELECT v FROM u WHERE id = 'bad' ORDER BY v",
            // a constant in braces, without a cast, is uuid input as any other spelling
            "SELECT v FROM u WHERE id = '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}' ORDER BY v",
            "SELECT v FROM u WHERE '{A0EEBC999C0B4EF8BB6D6BB9BD380A11}' <> id ORDER BY v",
            "SELECT v, id::text AS t, CAST(id AS varchar) AS c, id::text || '!' AS x FROM u ORDER BY v",
            "SELECT v, id::text::uuid AS r FROM u ORDER BY v",
            "SELECT upper(id::text)::uuid AS a FROM u ORDER BY a",
            "SELECT 'zz'::text::uuid AS a",
            // grouping, distinct, joins
            "SELECT k, count(*) AS n FROM u GROUP BY k ORDER BY k",
            "SELECT DISTINCT k FROM u ORDER BY k",
            "SELECT count(DISTINCT k) AS n FROM u",
            "SELECT a.v, b.v AS w FROM u a JOIN u b ON a.k = b.k ORDER BY a.v, b.v",
            "SELECT min(id) AS m FROM u",
            "SELECT max(k) AS m FROM u",
            "DELETE FROM u WHERE id = '{80000000-0000-0000-0000-000000000000}'::uuid",
            "UPDATE u SET v = 40 WHERE id = '7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF'",
            "SELECT * FROM u ORDER BY id");

    /** Writes to the tables the views read, each followed by a check of every view. */
    private static final List<String> VIEW_WRITES = List.of(
            "INSERT INTO o VALUES ('01111111-1111-1111-1111-111111111111', '0000eebc-99c0-b4ef-8bb6-d6bb9bd380a1', 7)",
            "UPDATE o SET uid = '7fffffff-ffff-ffff-ffff-ffffffffffff' WHERE oid = 'f1111111-1111-1111-1111-111111111111'",
            "DELETE FROM o WHERE oid = '11111111111111111111111111111111'",
            "INSERT INTO uo VALUES ('ffffffff-0000-0000-0000-000000000000', NULL, 9)",
            "UPDATE o SET uid = 'ffffffff-0000-0000-0000-000000000000' WHERE amount = 5",
            "DELETE FROM uo WHERE v = 1");

    private static PostgresPair pair;
    private static Connection pg;
    private static InProcessTributary tributary;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.forViews("uuid-diff-");
        pg = pair.pg;
        tributary = pair.tributary;
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    @Test
    void uuidsAnswerAsPostgres() {
        List<String> mismatches = pair.mismatches(STATEMENTS);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    /**
     * Materialized views keyed, grouped and joined by uuid are maintained as rows come, change and
     * go: after each write each holds what PostgreSQL's query answers over the same rows.
     */
    @Test
    void viewsOverUuidsAreMaintained() {
        assertEquals(
                List.of(),
                pair.mismatches(
                        List.of(
                                "CREATE TABLE uo (id uuid PRIMARY KEY, k uuid, v INT)",
                                "INSERT INTO uo VALUES ('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '00000000-0000-0000-0000-000000000001', 1),"
                                        + " ('80000000-0000-0000-0000-000000000000', NULL, 2),"
                                        + " ('0000eebc-99c0-b4ef-8bb6-d6bb9bd380a1', '00000000-0000-0000-0000-000000000001', 3),"
                                        + " ('7fffffff-ffff-ffff-ffff-ffffffffffff', 'ffffffff-ffff-ffff-ffff-ffffffffffff', 4)",
                                "CREATE TABLE o (oid uuid PRIMARY KEY, uid uuid, amount INT)",
                                "INSERT INTO o VALUES ('11111111-1111-1111-1111-111111111111', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 10),"
                                        + " ('f1111111-1111-1111-1111-111111111111', '80000000-0000-0000-0000-000000000000', 20),"
                                        + " ('91111111-1111-1111-1111-111111111111', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 5)")));
        List<PostgresPair.FollowedView> views = List.of(
                new PostgresPair.FollowedView(
                        "per_user",
                        "SELECT uo.id, uo.k, sum(o.amount) AS total, count(*) AS n FROM uo JOIN o ON o.uid = uo.id"
                                + " GROUP BY uo.id, uo.k",
                        "id"),
                new PostgresPair.FollowedView("by_k", "SELECT k, count(*) AS n, sum(v) AS s FROM uo GROUP BY k", "k"),
                new PostgresPair.FollowedView(
                        "orders_by_key", "SELECT oid, uid, amount FROM o WHERE amount > 1", "oid"));
        List<String> mismatches = pair.viewMismatches(views, VIEW_WRITES);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    /** Random uuids inserted into both order, compare and range-scan alike. */
    @Test
    void randomUuidsOrderAsPostgres() {
        Random random = new Random(20261204);
        StringBuilder insert = new StringBuilder("INSERT INTO r VALUES ");
        List<UUID> ids = new ArrayList<>();
        for (int i = 0; i < RANDOM_ROWS; i++) {
            UUID id = new UUID(random.nextLong(), random.nextLong());
            ids.add(id);
            insert.append(i == 0 ? "" : ", ")
                    .append("('")
                    .append(i % 3 == 0 ? id.toString().toUpperCase() : id.toString())
                    .append("', ")
                    .append(i)
                    .append(", '")
                    .append(ids.get(i / 2))
                    .append("')");
        }
        String pivot = ids.get(RANDOM_ROWS / 2).toString();
        List<String> mismatches = pair.mismatches(List.of(
                "CREATE TABLE r (id uuid PRIMARY KEY, n INT, g uuid)",
                insert.toString(),
                "SELECT id, n FROM r ORDER BY id",
                "SELECT id FROM r ORDER BY id DESC LIMIT 20",
                "SELECT n FROM r WHERE id < '" + pivot + "' ORDER BY n",
                "SELECT n FROM r WHERE id >= '" + pivot
                        + "' AND id < 'c0000000-0000-0000-0000-000000000000' ORDER BY n",
                "SELECT g, count(*) AS c, sum(n) AS s FROM r GROUP BY g ORDER BY g",
                "SELECT a.n, b.n AS m FROM r a JOIN r b ON a.g = b.id ORDER BY a.n",
                "SELECT n, id < g AS lt, id >= g AS ge FROM r ORDER BY n",
                "DELETE FROM r WHERE n % 4 = 1",
                "SELECT id, n FROM r WHERE id > '" + pivot + "' ORDER BY id DESC"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
        String grouped = "SELECT g, count(*) AS c, sum(n) AS s FROM r GROUP BY g";
        StatementOutcome.of(tributary.connection, "CREATE MATERIALIZED VIEW r_groups AS " + grouped, true);
        pair.both("DELETE FROM r WHERE n % 4 = 2");
        assertEquals(
                StatementOutcome.of(pg, grouped + " ORDER BY g", true),
                StatementOutcome.of(tributary.connection, "SELECT * FROM r_groups ORDER BY g", true));
    }

    /** COPY FROM in text and CSV with every input form, COPY TO in both: the same bytes as PostgreSQL's. */
    @Test
    void copyRoundTripsAsPostgres() throws Exception {
        String text = "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11\t1\n{8A0EEBC9-9C0B-4EF8-BB6D-6BB9BD380A11}\t2\n"
                + "0000eebc99c0b4ef8bb6d6bb9bd380a1\t\\N\n";
        String csv = "\"ffffffff-ffff-ffff-ffff-ffffffffffff\",3\n7fffffff-ffff-ffff-ffff-ffffffffffff,\n";
        for (Connection c : List.of(pg, tributary.connection)) {
            StatementOutcome.of(c, "CREATE TABLE cu (id uuid PRIMARY KEY, v INT)", true);
        }
        assertEquals(copyIn(pg, "COPY cu FROM STDIN", text), copyIn(tributary.connection, "COPY cu FROM STDIN", text));
        assertEquals(
                copyIn(pg, "COPY cu FROM STDIN (FORMAT csv)", csv),
                copyIn(tributary.connection, "COPY cu FROM STDIN (FORMAT csv)", csv));
        assertEquals(
                copyIn(pg, "COPY cu FROM STDIN", "nope\t1\n"),
                copyIn(tributary.connection, "COPY cu FROM STDIN", "nope\t1\n"));
        for (String out : List.of(
                "COPY (SELECT * FROM cu ORDER BY id) TO STDOUT",
                "COPY (SELECT * FROM cu ORDER BY id) TO STDOUT (FORMAT csv)")) {
            assertEquals(copyOut(pg, out), copyOut(tributary.connection, out), out);
        }
    }

    /**
     * pgjdbc binds a {@code java.util.UUID} as a uuid parameter and reads a uuid column back as
     * one; its metadata names the type uuid (OID 2950) for results and for {@code getColumns}.
     */
    @Test
    void pgjdbcBindsAndReadsUuids() throws Exception {
        List<UUID> ids = List.of(
                UUID.fromString("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"),
                UUID.fromString("8a0eebc9-9c0b-4ef8-bb6d-6bb9bd380a11"),
                UUID.fromString("00000000-0000-0000-0000-000000000000"));
        List<String> answers = new ArrayList<>();
        for (Connection c : List.of(pg, tributary.connection)) {
            StatementOutcome.of(c, "CREATE TABLE pu (id uuid PRIMARY KEY, v INT)", true);
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO pu VALUES (?, ?)")) {
                for (int i = 0; i < ids.size(); i++) {
                    insert.setObject(1, ids.get(i));
                    insert.setInt(2, i);
                    insert.executeUpdate();
                }
            }
            StringBuilder answer = new StringBuilder();
            try (PreparedStatement select = c.prepareStatement("SELECT id, v FROM pu WHERE id >= ? ORDER BY id")) {
                select.setObject(1, ids.get(2));
                try (ResultSet rs = select.executeQuery()) {
                    answer.append(rs.getMetaData().getColumnTypeName(1)).append(' ');
                    while (rs.next()) {
                        Object id = rs.getObject(1);
                        assertTrue(id instanceof UUID, "getObject gave " + id);
                        answer.append(id).append('=').append(rs.getInt(2)).append(' ');
                    }
                }
            }
            try (ResultSet columns = c.getMetaData().getColumns(null, "public", "pu", "id")) {
                assertTrue(columns.next());
                answer.append(columns.getString("TYPE_NAME")).append(':').append(columns.getInt("DATA_TYPE"));
            }
            answers.add(answer.toString());
            answers.add(StatementOutcome.withTypeNames(c, "SELECT id FROM pu ORDER BY id"));
            answers.add(StatementOutcome.of(
                    c,
                    "SELECT t.typname, t.typlen, format_type(a.atttypid, a.atttypmod) AS f FROM pg_attribute a"
                            + " JOIN pg_type t ON t.oid = a.atttypid WHERE a.attrelid = 'pu'::regclass AND a.attname = 'id'",
                    true));
        }
        assertEquals(answers.subList(0, 3), answers.subList(3, 6));
    }

    /**
     * {@code gen_random_uuid()} gives a version-4, RFC 4122 variant uuid, a different one per row
     * and per statement, and a materialized view refuses it with the SQLSTATE it gives {@code random()}.
     */
    @Test
    void genRandomUuidIsVersionFourAndVolatile() throws Exception {
        Set<UUID> seen = new HashSet<>();
        try (Statement s = tributary.connection.createStatement()) {
            for (int call = 0; call < 2; call++) {
                try (ResultSet rs = s.executeQuery("SELECT gen_random_uuid() AS a FROM generate_series(1, 100)")) {
                    while (rs.next()) {
                        UUID u = (UUID) rs.getObject(1);
                        assertEquals(4, u.version(), u.toString());
                        assertEquals(2, u.variant(), u.toString());
                        assertTrue(seen.add(u), "repeated " + u);
                    }
                }
            }
            s.execute("CREATE TABLE gr (id INT PRIMARY KEY)");
        }
        assertEquals(200, seen.size());
        String randomRefusal = StatementOutcome.of(
                tributary.connection, "CREATE MATERIALIZED VIEW gr_r AS SELECT id, random() AS x FROM gr", true);
        String uuidRefusal = StatementOutcome.of(
                tributary.connection,
                "CREATE MATERIALIZED VIEW gr_u AS SELECT id, gen_random_uuid() AS x FROM gr",
                true);
        assertTrue(randomRefusal.startsWith("ERROR"), randomRefusal);
        assertEquals(randomRefusal.replace("random", "gen_random_uuid"), uuidRefusal);
    }

    private static String copyIn(Connection c, String sql, String input) {
        try {
            return "copied "
                    + c.unwrap(PGConnection.class)
                            .getCopyAPI()
                            .copyIn(sql, new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)));
        } catch (SQLException e) {
            return "ERROR " + e.getSQLState();
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String copyOut(Connection c, String sql) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        c.unwrap(PGConnection.class).getCopyAPI().copyOut(sql, out);
        return out.toString(StandardCharsets.UTF_8);
    }
}

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
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.PGConnection;

/**
 * PostgreSQL's {@code character(n)} columns ({@code char(n)}, {@code character}, {@code bpchar}),
 * run in order on Tributary and on an embedded PostgreSQL: values padded with blanks on INSERT,
 * UPDATE, DEFAULT and COPY, 22001 for a longer value, the padded text and type (JDBC CHAR) in
 * results, comparisons, keys, grouping and joins that ignore trailing blanks, the functions and
 * casts that drop them or keep them, the catalog's type name, and materialized views over such
 * columns kept equal to PostgreSQL's query through writes.
 */
class CharColumnDifferentialTest {
    private static final List<String> STATEMENTS = List.of(
            "CREATE TABLE c0 (c char(0))",
            "CREATE TABLE ch (id int PRIMARY KEY, c char(3), d character(5), e char, t text)",
            "INSERT INTO ch VALUES (1, 'a', 'ab', 'x', 'a'), (2, 'ab ', 'abcde', 'y', 'ab '),"
                    + " (3, 'abc', 'b', NULL, 'abc'), (4, '  ', '', ' ', ''), (5, NULL, NULL, 'z', NULL)",
            "INSERT INTO ch VALUES (6, 'abcd', 'a', 'a', 'a')",
            "INSERT INTO ch VALUES (6, 'abc    ', 'a     ', 'a  ', 'a')",
            "INSERT INTO ch (id, e) VALUES (7, 'ab')",
            "SELECT * FROM ch ORDER BY id",
            "SELECT id, c, d, e FROM ch WHERE id > 2 ORDER BY id",
            // comparisons ignore the padding, with constants, text and other char columns
            "SELECT id FROM ch WHERE c = 'a' ORDER BY id",
            "SELECT id FROM ch WHERE c = 'a  ' ORDER BY id",
            "SELECT id FROM ch WHERE c = 'ab' ORDER BY id",
            "SELECT id FROM ch WHERE c <> 'ab' ORDER BY id",
            "SELECT id FROM ch WHERE c < 'ab' ORDER BY id",
            "SELECT id FROM ch WHERE c >= 'ab' ORDER BY id",
            "SELECT id FROM ch WHERE c = '' ORDER BY id",
            "SELECT id FROM ch WHERE c = d ORDER BY id",
            "SELECT id FROM ch WHERE c = t ORDER BY id",
            "SELECT id FROM ch WHERE c IN ('a', 'abc') ORDER BY id",
            "SELECT id FROM ch WHERE c LIKE 'a%' ORDER BY id",
            "SELECT id FROM ch WHERE c LIKE '%b' ORDER BY id",
            // functions and casts: text drops the blanks, octet_length and concat keep them
            "SELECT id, length(c) AS l, char_length(d) AS cl, octet_length(c) AS o FROM ch ORDER BY id",
            "SELECT id, c || 'x' AS a, d || c AS b, upper(c) AS u FROM ch ORDER BY id",
            "SELECT id, c::text AS a, CAST(c AS varchar) AS b, c::varchar(2) AS v FROM ch ORDER BY id",
            "SELECT id, concat(c, '|') AS a FROM ch ORDER BY id",
            // a derived table's string constant is text, not character(n): its blanks count
            "SELECT x = 'ab' AS eq, x || '!' AS cat, x::text || '|' AS t, length(x) AS l FROM (SELECT 'ab ' AS x) s",
            "SELECT x = 'a' AS eq, x || '!' AS cat, length(x) AS l FROM (VALUES ('a '), ('b')) v(x) ORDER BY x",
            "SELECT x = 'ab' AS eq, length(x) AS l, x || '|' AS cat FROM (SELECT 'ab ' AS x) s",
            "WITH w AS (SELECT 'ab ' AS x) SELECT x = 'ab' AS eq, x || '|' AS cat FROM w",
            "SELECT x = 'ab' AS eq FROM (VALUES ('ab ')) v(x)",
            // a char(n) column read through a derived table, view or WITH query is still char(n)
            "CREATE TABLE ct (id int PRIMARY KEY, c char(3), t text)",
            "INSERT INTO ct VALUES (1, 'ab', 'ab ')",
            "SELECT s.c = 'ab' AS c, s.t = 'ab' AS t FROM (SELECT c, t FROM ct WHERE id = 1) s",
            "CREATE VIEW vc AS SELECT c FROM ct",
            "SELECT count(*) AS n FROM vc WHERE c = 'ab'",
            "WITH w AS (SELECT c FROM ct) SELECT c = 'ab' AS e FROM w",
            "SELECT s.k = 'ab' AS e, s.k || '|' AS cat, length(s.k) AS l FROM (SELECT c AS k FROM ct) s",
            "SELECT v.k = 'ab' AS e, upper(v.k) || '|' AS u FROM (SELECT * FROM (SELECT c FROM ct) a) v(k)",
            "CREATE VIEW vk (k, u) AS SELECT c, t FROM ct",
            "SELECT k || '|' AS a, u || '|' AS b, k = 'ab' AS e FROM vk",
            "WITH w (k) AS (SELECT c FROM ct) SELECT k = 'ab' AS e, k || '|' AS cat FROM w",
            "SELECT s.c = 'ab' AS e, s.x = 'ab' AS x, s.x || '|' AS cat FROM (SELECT c, 'ab ' AS x FROM ct) s",
            // grouping, distinct, order, joins
            "SELECT c, count(*) AS n FROM ch GROUP BY c ORDER BY c",
            "SELECT DISTINCT e FROM ch ORDER BY e",
            "SELECT id, c FROM ch ORDER BY c DESC, id",
            "SELECT a.id, b.id AS j FROM ch a JOIN ch b ON a.c = b.d ORDER BY a.id, b.id",
            // writes
            "UPDATE ch SET c = 'q' WHERE id = 1",
            "UPDATE ch SET c = 'long' WHERE id = 2",
            "UPDATE ch SET d = 'xy   ' WHERE c = 'abc'",
            "SELECT * FROM ch ORDER BY id",
            "DELETE FROM ch WHERE c = 'q'",
            "SELECT id, c FROM ch ORDER BY id",
            // keys on char(n)
            "CREATE TABLE kc (k char(4) PRIMARY KEY, v int)",
            "INSERT INTO kc VALUES ('us', 1), ('de', 2)",
            "INSERT INTO kc VALUES ('us  ', 3)",
            "INSERT INTO kc VALUES ('us', 4) ON CONFLICT (k) DO UPDATE SET v = excluded.v",
            "INSERT INTO kc VALUES ('de ', 5) ON CONFLICT (k) DO NOTHING",
            "SELECT * FROM kc ORDER BY k",
            "SELECT v FROM kc WHERE k = 'us' ORDER BY v",
            "CREATE TABLE uc (id int PRIMARY KEY, code char(2))",
            "CREATE UNIQUE INDEX uc_code ON uc (code)",
            "INSERT INTO uc VALUES (1, 'a'), (2, 'b')",
            "INSERT INTO uc VALUES (3, 'a ')",
            "SELECT * FROM uc ORDER BY id",
            // defaults and added columns
            "CREATE TABLE dc (id int PRIMARY KEY, c char(3) DEFAULT 'x')",
            "INSERT INTO dc (id) VALUES (1)",
            "ALTER TABLE dc ADD COLUMN e char(2) DEFAULT 'y'",
            "INSERT INTO dc (id, c) VALUES (2, 'zz')",
            "SELECT * FROM dc ORDER BY id",
            // the catalog's view of the types
            "SELECT column_name, data_type, character_maximum_length FROM information_schema.columns"
                    + " WHERE table_name = 'ch' ORDER BY ordinal_position",
            "SELECT a.attname, format_type(a.atttypid, a.atttypmod) AS f FROM pg_attribute a"
                    + " WHERE a.attrelid = 'ch'::regclass AND a.attnum > 0 ORDER BY a.attnum",
            // || of varchar(n) strings is text, as PostgreSQL's textcat
            "CREATE TABLE vcat (id int PRIMARY KEY, v varchar(5), w varchar, t text, c char(2))",
            "INSERT INTO vcat VALUES (1, 'ab', 'cd', 'ef', 'g')",
            "SELECT pg_typeof(v || v)::text AS a, v || v AS b, pg_typeof(v || w)::text AS c, pg_typeof(v || 'x')::text AS d,"
                    + " pg_typeof(v || t)::text AS e, pg_typeof(v || c)::text AS f, v || c AS g, pg_typeof('x' || v)::text AS h"
                    + " FROM vcat",
            "SELECT pg_typeof(v)::text AS a, pg_typeof(v || v || v)::text AS b, v || v || v AS c FROM vcat",
            "CREATE TABLE bp (id int PRIMARY KEY, f bpchar)",
            "SELECT a.attname, format_type(a.atttypid, a.atttypmod) AS f FROM pg_attribute a"
                    + " WHERE a.attrelid = 'bp'::regclass AND a.attnum > 0 ORDER BY a.attnum");

    /**
     * Compared by value only: an expression of type character(n) (a cast, min, max) reaches
     * clients typed text here, bpchar in PostgreSQL, as does a bpchar column without a length.
     */
    private static final List<String> VALUES_ONLY = List.of(
            "SELECT 'abcd'::char(3) AS a, 'ab'::char(3) AS b",
            "SELECT min(c) AS mi, max(d) AS ma FROM ch",
            "INSERT INTO bp VALUES (1, 'f '), (2, 'g'), (3, NULL)",
            "SELECT * FROM bp ORDER BY id");

    /** Writes to the tables the views read, each followed by a check of every view. */
    private static final List<String> VIEW_WRITES = List.of(
            "INSERT INTO cc VALUES ('us', 'United States', 3)",
            "INSERT INTO ord VALUES (10, 'us ', 7), (11, 'fr', 1)",
            "UPDATE ord SET country = 'de' WHERE id = 1",
            "UPDATE cc SET region = 'eu ' WHERE code = 'fr'",
            "DELETE FROM ord WHERE country = 'us'",
            "DELETE FROM cc WHERE code = 'de '");

    private static PostgresPair pair;
    private static Connection pg;
    private static InProcessTributary tributary;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.forViews("char-diff-");
        pg = pair.pg;
        tributary = pair.tributary;
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    @Test
    void charColumnsAnswerAsPostgres() {
        List<String> mismatches = new ArrayList<>(pair.mismatches(STATEMENTS));
        mismatches.addAll(
                StatementOutcome.mismatches(pg, tributary.connection, VALUES_ONLY, StatementOutcome::withoutTypes));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    /**
     * Materialized views filtering, grouping and joining on char(n) columns are maintained as rows
     * come, change and go: after each write each holds what PostgreSQL's query answers.
     */
    @Test
    void viewsOverCharColumnsAreMaintained() {
        assertEquals(
                List.of(),
                pair.mismatches(List.of(
                        "CREATE TABLE cc (code char(2) PRIMARY KEY, name varchar(20), region char(3))",
                        "INSERT INTO cc VALUES ('de', 'Germany', 'eu'), ('fr', 'France', 'eu'), ('jp', 'Japan', 'as')",
                        "CREATE TABLE ord (id int PRIMARY KEY, country char(2), amount int)",
                        "INSERT INTO ord VALUES (1, 'fr', 10), (2, 'de', 20), (3, 'jp ', 5), (4, 'fr', 1)")));
        List<PostgresPair.FollowedView> views = List.of(
                new PostgresPair.FollowedView(
                        "per_country",
                        "SELECT cc.code, cc.region, sum(ord.amount) AS total, count(*) AS n FROM cc"
                                + " JOIN ord ON ord.country = cc.code GROUP BY cc.code, cc.region",
                        "code"),
                new PostgresPair.FollowedView(
                        "per_region", "SELECT region, count(*) AS n FROM cc GROUP BY region", "region"),
                new PostgresPair.FollowedView(
                        "eu", "SELECT code, name, region || '!' AS r FROM cc WHERE region = 'eu'", "code"));
        List<String> mismatches = pair.viewMismatches(views, VIEW_WRITES);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    /** COPY FROM in text and CSV pads and refuses as PostgreSQL does; COPY TO writes the padding. */
    @Test
    void copyPadsAsPostgres() throws Exception {
        for (Connection c : List.of(pg, tributary.connection)) {
            StatementOutcome.of(c, "CREATE TABLE cp (id int PRIMARY KEY, c char(3))", true);
        }
        for (String[] in : List.of(
                new String[] {"COPY cp FROM STDIN", "1\ta\n2\tab \n3\t\\N\n"},
                new String[] {"COPY cp FROM STDIN (FORMAT csv)", "4,\"b\"\n5,abc   \n"},
                new String[] {"COPY cp FROM STDIN", "6\tabcd\n"})) {
            assertEquals(copyIn(pg, in[0], in[1]), copyIn(tributary.connection, in[0], in[1]), in[1]);
        }
        for (String out : List.of(
                "COPY (SELECT * FROM cp ORDER BY id) TO STDOUT",
                "COPY (SELECT * FROM cp ORDER BY id) TO STDOUT (FORMAT csv)")) {
            assertEquals(copyOut(pg, out), copyOut(tributary.connection, out), out);
        }
    }

    /**
     * pgjdbc's metadata: the result column is {@code bpchar} (and its length the column's), {@code
     * getColumns} names {@code bpchar} with the column's size; a bound parameter is padded.
     */
    @Test
    void pgjdbcSeesCharacterColumns() throws Exception {
        List<String> answers = new ArrayList<>();
        for (Connection c : List.of(pg, tributary.connection)) {
            StatementOutcome.of(c, "CREATE TABLE pc (id int PRIMARY KEY, c char(4))", true);
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO pc VALUES (?, ?)")) {
                insert.setInt(1, 1);
                insert.setString(2, "ab");
                insert.executeUpdate();
            }
            StringBuilder answer = new StringBuilder();
            try (PreparedStatement select = c.prepareStatement("SELECT id, c FROM pc WHERE c = ?")) {
                select.setString(1, "ab");
                try (ResultSet rs = select.executeQuery()) {
                    answer.append(rs.getMetaData().getColumnTypeName(2))
                            .append(':')
                            .append(rs.getMetaData().getPrecision(2))
                            .append(' ');
                    while (rs.next()) {
                        answer.append('[').append(rs.getString(2)).append("] ");
                    }
                }
            }
            try (ResultSet columns = c.getMetaData().getColumns(null, "public", "pc", "c")) {
                assertTrue(columns.next());
                answer.append(columns.getString("TYPE_NAME"))
                        .append(':')
                        .append(columns.getInt("DATA_TYPE"))
                        .append(':')
                        .append(columns.getInt("COLUMN_SIZE"));
            }
            answers.add(answer.toString());
            answers.add(StatementOutcome.withTypeNames(c, "SELECT c FROM pc"));
        }
        assertEquals(answers.subList(0, 2), answers.subList(2, 4));
    }

    private static String copyIn(Connection c, String sql, String input) {
        try {
            return "copied "
                    + c.unwrap(PGConnection.class)
                            .getCopyAPI()
                            .copyIn(sql, new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)));
        } catch (SQLException | java.io.IOException e) {
            return "ERROR " + (e instanceof SQLException s ? s.getSQLState() : e.getMessage());
        }
    }

    private static String copyOut(Connection c, String sql) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        c.unwrap(PGConnection.class).getCopyAPI().copyOut(sql, out);
        return out.toString(StandardCharsets.UTF_8);
    }
}

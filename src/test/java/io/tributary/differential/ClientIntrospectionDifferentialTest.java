package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The constructs GUI clients' introspection queries use, in those queries' shapes, run on Tributary
 * and on an embedded PostgreSQL with the same tables: each statement's rows (with labels and JDBC
 * types) or SQLSTATE must match. Grafana's PostgreSQL data source lists schemas, tables and columns
 * with {@code information_schema}, {@code quote_ident}, {@code current_setting('server_version_num')}
 * and a search-path test that splits {@code current_setting('search_path')} with
 * {@code string_to_array} in FROM and walks it with {@code generate_series} over
 * {@code array_lower}/{@code array_upper}; its column list parses the picked name with
 * {@code parse_ident}. DBeaver's navigator joins {@code pg_namespace}, {@code pg_class},
 * {@code pg_attribute} and {@code pg_description} by OID and {@code ::regclass}.
 */
class ClientIntrospectionDifferentialTest {
    private static final List<String> SETUP = List.of(
            "CREATE TABLE metrics (id BIGINT PRIMARY KEY, host TEXT, ts TIMESTAMP, v DOUBLE PRECISION)",
            "CREATE TABLE \"Odd Name\" (id INT PRIMARY KEY, \"Mixed Col\" TEXT)",
            "CREATE SCHEMA other",
            "CREATE TABLE other.events (id INT PRIMARY KEY, kind VARCHAR(20))");

    /** The search-path test Grafana's table and column lists apply, over {@code information_schema.tables}' columns. */
    private static final String IN_SEARCH_PATH =
            "quote_ident(table_schema) IN (SELECT CASE WHEN trim(s[i]) = '\"$user\"'"
                    + " THEN user ELSE trim(s[i]) END FROM generate_series(array_lower(string_to_array("
                    + "current_setting('search_path'), ','), 1), array_upper(string_to_array(current_setting('search_path'),"
                    + " ','), 1)) AS i, string_to_array(current_setting('search_path'), ',') s)";

    private static final List<String> GRAFANA = List.of(
            "SELECT schema_name AS \"name\" FROM information_schema.schemata WHERE schema_name NOT IN"
                    + " ('information_schema', 'pg_catalog', 'pg_toast', 'tributary_catalog') ORDER BY schema_name",
            "SELECT quote_ident(table_name) AS \"table\" FROM information_schema.tables WHERE"
                    + " quote_ident(table_schema) = 'public' ORDER BY 1",
            "SELECT CASE WHEN " + IN_SEARCH_PATH + " THEN quote_ident(table_name) ELSE quote_ident(table_schema)"
                    + " || '.' || quote_ident(table_name) END AS \"table\" FROM information_schema.tables"
                    + " WHERE quote_ident(table_schema) NOT IN ('information_schema', 'pg_catalog', 'tributary_catalog')"
                    + " ORDER BY CASE WHEN " + IN_SEARCH_PATH + " THEN 0 ELSE 1 END, 1",
            "SELECT quote_ident(column_name) AS \"column\", data_type AS \"type\" FROM information_schema.columns"
                    + " WHERE CASE WHEN array_length(parse_ident('metrics'), 1) = 2"
                    + " THEN quote_ident(table_schema) = (parse_ident('metrics'))[1]"
                    + " AND quote_ident(table_name) = (parse_ident('metrics'))[2]"
                    + " ELSE quote_ident(table_name) = 'metrics' AND " + IN_SEARCH_PATH + " END ORDER BY 1",
            "SELECT quote_ident(column_name) AS \"column\", data_type AS \"type\" FROM information_schema.columns"
                    + " WHERE CASE WHEN array_length(parse_ident('other.events'), 1) = 2"
                    + " THEN quote_ident(table_schema) = (parse_ident('other.events'))[1]"
                    + " AND quote_ident(table_name) = (parse_ident('other.events'))[2]"
                    + " ELSE quote_ident(table_name) = 'other.events' END ORDER BY 1",
            "SET search_path = other, public",
            "SELECT CASE WHEN " + IN_SEARCH_PATH + " THEN quote_ident(table_name) ELSE quote_ident(table_schema)"
                    + " || '.' || quote_ident(table_name) END AS \"table\" FROM information_schema.tables"
                    + " WHERE quote_ident(table_schema) NOT IN ('information_schema', 'pg_catalog', 'tributary_catalog')"
                    + " ORDER BY 1",
            "RESET search_path");

    /** Arrays are compared as text: the wire layer sends them as text (README, known limits). */
    private static final List<String> ARRAYS = List.of(
            "SELECT array_to_string(string_to_array('a,b,c', ','), '|')",
            "SELECT (string_to_array('a,b', ','))[1], (string_to_array('a,b', ','))[3]",
            "SELECT array_to_string(string_to_array('a,b,NA', ',', 'NA'), '|', '*'),"
                    + " array_to_string(string_to_array('abc', NULL), '|'), array_to_string(string_to_array('abc', ''), '|')",
            "SELECT cardinality(string_to_array('', ',')), string_to_array(NULL, ',') IS NULL,"
                    + " array_to_string(string_to_array('a,,b', ','), '|')",
            "SELECT array_length(string_to_array('a,b', ','), 1), array_length(string_to_array('', ','), 1),"
                    + " array_length(string_to_array('a,b', ','), 2)",
            "SELECT array_lower(string_to_array('a,b', ','), 1), array_lower(string_to_array('', ','), 1),"
                    + " array_lower(string_to_array('a', ','), 2), array_upper(string_to_array('x,y,z', ','), 1)",
            "SELECT array_to_string(parse_ident('metrics'), '|'), array_to_string(parse_ident('Other.Events'), '|'),"
                    + " array_to_string(parse_ident('\"My T\".x'), '|')",
            "SELECT array_to_string(parse_ident('a.b.c'), '|'), (parse_ident('\"a\"\"b\"'))[1],"
                    + " array_to_string(parse_ident('  a . b  '), '|')",
            "SELECT parse_ident('a.')",
            "SELECT parse_ident('.a')",
            "SELECT parse_ident('a b')",
            "SELECT (parse_ident('a b', false))[1]",
            "SELECT parse_ident('')",
            "SELECT parse_ident('\"unclosed')",
            "SELECT s[i] FROM generate_series(1, 3) AS i, string_to_array('x,y,z', ',') s ORDER BY 1",
            "SELECT * FROM upper('x')",
            "SELECT * FROM upper('x') AS u",
            "SELECT v FROM upper('x') AS u(v)",
            "SELECT u.v, g FROM upper('x') AS u(v), generate_series(1, 2) g ORDER BY g",
            "SELECT * FROM generate_series(abs(-1), abs(-3)) AS g ORDER BY 1",
            "SELECT * FROM generate_series(1, (SELECT count(*) FROM metrics) + 2) AS g ORDER BY 1",
            "SELECT x FROM generate_series(1, (SELECT 3)) AS g(x) ORDER BY 1 DESC");

    private static final List<String> DBEAVER = List.of(
            "SELECT n.nspname, d.description FROM pg_catalog.pg_namespace n LEFT OUTER JOIN pg_catalog.pg_description d"
                    + " ON d.objoid = n.oid AND d.objsubid = 0 AND d.classoid = 'pg_namespace'::regclass"
                    + " WHERE n.nspname IN ('public', 'other') ORDER BY nspname",
            "SELECT c.relname, c.relkind::text, d.description, CASE WHEN c.relkind = 'p' THEN true ELSE false END"
                    + " AS is_partitioned FROM pg_catalog.pg_class c LEFT OUTER JOIN pg_catalog.pg_description d"
                    + " ON d.objoid = c.oid AND d.objsubid = 0 AND d.classoid = 'pg_class'::regclass"
                    + " WHERE c.relnamespace = 'other'::regnamespace AND c.relkind NOT IN ('i', 'I', 'c')"
                    + " ORDER BY c.relname",
            "SELECT c.relname, a.attname, a.attnum, a.attnotnull, format_type(a.atttypid, a.atttypmod), dsc.description"
                    + " FROM pg_catalog.pg_attribute a INNER JOIN pg_catalog.pg_class c ON (a.attrelid = c.oid)"
                    + " LEFT OUTER JOIN pg_catalog.pg_description dsc ON (c.oid = dsc.objoid AND a.attnum = dsc.objsubid)"
                    + " WHERE NOT a.attisdropped AND a.attnum > 0 AND c.oid = 'metrics'::regclass ORDER BY a.attnum",
            "SELECT current_schema(), session_user",
            "SELECT setting FROM pg_catalog.pg_settings WHERE name = 'standard_conforming_strings'");

    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("clients-diff-");
        assertEquals(List.of(), pair.mismatches(SETUP));
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    @Test
    void grafanasSchemaTableAndColumnListsAnswerAsPostgres() {
        List<String> mismatches = pair.mismatches(GRAFANA);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    /** Tributary speaks PostgreSQL 15 (its embedded PostgreSQL may be another): the number matches the name. */
    @Test
    void serverVersionNumberMatchesServerVersion() throws Exception {
        try (var st = pair.tributary.connection.createStatement();
                var rs = st.executeQuery("SELECT current_setting('server_version'),"
                        + " current_setting('server_version_num')::int / 100 AS version")) {
            rs.next();
            assertEquals(rs.getString(1).replace(".", "") + "0", String.valueOf(rs.getInt(2)));
        }
    }

    @Test
    void arrayAndFromFunctionsAnswerAsPostgres() {
        List<String> mismatches = pair.mismatches(ARRAYS);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    @Test
    void dbeaversNavigatorQueriesAnswerAsPostgres() {
        List<String> mismatches = pair.mismatches(DBEAVER);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }
}

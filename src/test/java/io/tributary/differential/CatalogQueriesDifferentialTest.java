package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Casts to {@code regtype} by any of a type's names, {@code pg_typeof} compared with a regtype, the
 * privilege functions over a catalog column (psql's {@code \l+} passes {@code
 * pg_database.datname}), and the queries psql's {@code \do} and {@code \dc} send: each statement's rows (labels and JDBC types) or SQLSTATE must match an
 * embedded PostgreSQL's. Tributary's regtype and pg_typeof columns are text, so names are read
 * through {@code ::text} and comparisons.
 */
class CatalogQueriesDifferentialTest {
    private static final List<String> STATEMENTS = List.of(
            "SELECT 'integer'::regtype::text AS a, 'int4'::regtype::text AS b, 'int[]'::regtype::text AS c,"
                    + " 'character varying'::regtype::text AS d, 'double precision'::regtype::text AS e",
            "SELECT 'integer'::regtype = 'int4'::regtype AS a, 'bigint'::regtype = 'int8'::regtype AS b,"
                    + " 'timestamp with time zone'::regtype = 'timestamptz'::regtype AS c",
            "SELECT pg_typeof(1)::text AS a, pg_typeof(1) = 'integer'::regtype AS b,"
                    + " pg_typeof('x'::text) <> 'int4'::regtype AS c, 'int8'::regtype = pg_typeof(1::bigint) AS d,"
                    + " pg_typeof(ARRAY[1]) = 'int[]'::regtype AS e, pg_typeof(1.5) = 'numeric'::regtype AS f",
            "SELECT count(*) AS n FROM pg_attribute WHERE attrelid = 'pg_class'::regclass"
                    + " AND attname = 'relname' AND atttypid = 'name'::regtype",
            "SELECT datname, has_database_privilege(datname, 'CONNECT') AS c FROM pg_database"
                    + " WHERE datname = current_database()",
            "SELECT nspname, has_schema_privilege(nspname, 'USAGE') AS u FROM pg_namespace WHERE nspname = 'public'",
            // psql's \\l+ (but its sizes)
            "SELECT d.datname, pg_catalog.shobj_description(d.oid, 'pg_database') AS \"Description\""
                    + " FROM pg_catalog.pg_database d JOIN pg_catalog.pg_tablespace t on d.dattablespace = t.oid"
                    + " WHERE d.datname = current_database() ORDER BY 1",
            // psql's \do
            "SELECT n.nspname as \"Schema\", o.oprname AS \"Name\","
                    + " CASE WHEN o.oprkind='l' THEN NULL ELSE pg_catalog.format_type(o.oprleft, NULL) END AS \"Left arg type\","
                    + " CASE WHEN o.oprkind='r' THEN NULL ELSE pg_catalog.format_type(o.oprright, NULL) END AS \"Right arg type\","
                    + " pg_catalog.format_type(o.oprresult, NULL) AS \"Result type\","
                    + " coalesce(pg_catalog.obj_description(o.oid, 'pg_operator'),"
                    + " pg_catalog.obj_description(o.oprcode, 'pg_proc')) AS \"Description\""
                    + " FROM pg_catalog.pg_operator o LEFT JOIN pg_catalog.pg_namespace n ON n.oid = o.oprnamespace"
                    + " WHERE n.nspname <> 'pg_catalog' AND n.nspname <> 'information_schema'"
                    + " AND pg_catalog.pg_operator_is_visible(o.oid) ORDER BY 1, 2, 3, 4",
            // psql's \dc
            "SELECT n.nspname AS \"Schema\", c.conname AS \"Name\","
                    + " pg_catalog.pg_encoding_to_char(c.conforencoding) AS \"Source\","
                    + " pg_catalog.pg_encoding_to_char(c.contoencoding) AS \"Destination\","
                    + " CASE WHEN c.condefault THEN 'yes' ELSE 'no' END AS \"Default?\""
                    + " FROM pg_catalog.pg_conversion c JOIN pg_catalog.pg_namespace n ON n.oid = c.connamespace"
                    + " WHERE true AND n.nspname <> 'pg_catalog' AND n.nspname <> 'information_schema'"
                    + " AND pg_catalog.pg_conversion_is_visible(c.oid) ORDER BY 1, 2");

    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("catalogtypes-diff-");
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    @Test
    void answersAsPostgres() {
        List<String> mismatches = pair.mismatches(STATEMENTS);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    /**
     * pg_typeof of values Tributary holds as another type (issue 12): character(n) casts and
     * columns (direct and through a derived table), the session functions PostgreSQL types name,
     * casts to catalog types and catalog columns of type name, "char" and oid; a string function of a
     * constant stays text; the same in a view and a materialized view. Also "char" and oid catalog values in comparisons and casts, and catalog
     * columns of type "char" read as they are, which clients see as "char" (JDBC type CHAR), and a
     * pg_typeof column, which they see as regtype.
     */
    @Test
    void typeNamesOfCharNameAndCatalogValues() {
        List<String> mismatches = pair.mismatches(List.of(
                "CREATE TABLE typeof_t (id INT PRIMARY KEY, c CHAR(3), v VARCHAR(5))",
                "INSERT INTO typeof_t VALUES (1, 'a', 'b')",
                "SELECT pg_typeof('a'::char(3))::text AS a, pg_typeof('a'::character)::text AS b,"
                        + " pg_typeof(c)::text AS c, pg_typeof(t.c)::text AS d, pg_typeof(v)::text AS e,"
                        + " pg_typeof(upper('abc'))::text AS f, pg_typeof(c) = 'bpchar'::regtype AS g FROM typeof_t t",
                "SELECT pg_typeof(x.c)::text AS c FROM (SELECT c FROM typeof_t) x",
                "SELECT pg_typeof(current_user)::text AS a, pg_typeof(session_user)::text AS b,"
                        + " pg_typeof(user)::text AS c, pg_typeof(current_schema)::text AS d,"
                        + " pg_typeof(current_schema())::text AS e, pg_typeof(current_database())::text AS f,"
                        + " pg_typeof(current_catalog)::text AS g, pg_typeof(current_role)::text AS h,"
                        + " pg_typeof(current_user) = 'name'::regtype AS i",
                "SELECT pg_typeof('x'::name)::text AS a, pg_typeof('a'::\"char\")::text AS b,"
                        + " pg_typeof(1259::oid)::text AS c, pg_typeof('pg_class'::regclass)::text AS d,"
                        + " pg_typeof('int4'::regtype)::text AS e",
                "SELECT pg_typeof('x'::oid)",
                "SELECT pg_typeof('nosuch'::regclass)",
                "SELECT pg_typeof(NULL::regclass)::text AS a, pg_typeof('1259'::oid)::text AS b",
                "SELECT pg_typeof(relname)::text AS a, pg_typeof(relkind)::text AS b, pg_typeof(oid)::text AS c,"
                        + " pg_typeof(c.relnamespace)::text AS d, pg_typeof(relnatts)::text AS e"
                        + " FROM pg_class c WHERE relname = 'pg_class'",
                "SELECT relkind, c.relname, c.relkind AS k FROM pg_class c WHERE relname = 'pg_class'",
                "SELECT pg_typeof(1), pg_typeof(c.relkind) AS k, pg_typeof(relname)::text AS n"
                        + " FROM pg_class c WHERE relname = 'pg_class'",
                "SELECT n.nspname, t.typtype FROM pg_catalog.pg_namespace n JOIN pg_catalog.pg_type t"
                        + " ON t.typnamespace = n.oid WHERE t.typname = 'int4'",
                "SELECT relkind::text AS t, relkind = 'r' AS e, oid = 1259 AS o, oid::int8 AS b, 1259::oid::text AS c"
                        + " FROM pg_class WHERE relname = 'pg_class'",
                "CREATE VIEW typeof_v AS SELECT id, pg_typeof(c)::text AS c, pg_typeof('a'::char(2))::text AS a"
                        + " FROM typeof_t",
                "SELECT * FROM typeof_v",
                "CREATE MATERIALIZED VIEW typeof_m AS SELECT id, pg_typeof(c)::text AS c,"
                        + " pg_typeof('a'::char(2))::text AS a FROM typeof_t",
                "SELECT * FROM typeof_m",
                "DROP MATERIALIZED VIEW typeof_m",
                "DROP VIEW typeof_v",
                "DROP TABLE typeof_t"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }

    /**
     * pg_typeof of a view's column whose values Tributary holds as another type: a column made of a
     * pg_typeof call is regtype in PostgreSQL (Tributary holds its text), through a plain view, a view
     * over it, a materialized view maintained as rows arrive, a derived table and a WITH query; and
     * pg_typeof of a pg_typeof call.
     */
    @Test
    void typeNamesThroughViews() throws Exception {
        List<String> mismatches = new ArrayList<>(pair.mismatches(List.of(
                "CREATE TABLE typeof_s (id INT PRIMARY KEY, a INT, c CHAR(3))",
                "INSERT INTO typeof_s VALUES (1, 2, 'x')",
                "CREATE VIEW typeof_sv AS SELECT id, pg_typeof(a) AS ty, pg_typeof(c) AS tc, c FROM typeof_s",
                "CREATE VIEW typeof_sv2 AS SELECT * FROM typeof_sv",
                "CREATE MATERIALIZED VIEW typeof_sm AS SELECT id, pg_typeof(a) AS ty, pg_typeof(c) AS tc, c,"
                        + " pg_typeof(pg_typeof(a))::text AS tt FROM typeof_s",
                "INSERT INTO typeof_s VALUES (2, 3, 'y')")));
        // PostgreSQL's materialized view is computed when refreshed; Tributary's kept through the INSERT
        InProcessTributary.execScript(pair.pg, "REFRESH MATERIALIZED VIEW typeof_sm");
        mismatches.addAll(pair.mismatches(List.of(
                "SELECT id, ty::text AS ty, tc::text AS tc, pg_typeof(ty)::text AS a, pg_typeof(tc)::text AS b,"
                        + " pg_typeof(c)::text AS c FROM typeof_sv ORDER BY id",
                "SELECT id, pg_typeof(ty)::text AS a, pg_typeof(v.tc)::text AS b FROM typeof_sv2 v ORDER BY id",
                "SELECT id, ty::text AS ty, pg_typeof(ty)::text AS a, pg_typeof(m.tc)::text AS b,"
                        + " pg_typeof(c)::text AS c, tt FROM typeof_sm m ORDER BY id",
                "SELECT pg_typeof(s.ty)::text AS a FROM (SELECT ty FROM typeof_sm) s",
                "SELECT pg_typeof(x)::text AS a, pg_typeof(z)::text AS b"
                        + " FROM (SELECT pg_typeof(1) AS x, 'a'::char(2) AS z) s",
                "WITH w AS (SELECT pg_typeof(1) AS x) SELECT pg_typeof(x)::text AS a FROM w",
                "SELECT pg_typeof(pg_typeof(1))::text AS a",
                "DROP MATERIALIZED VIEW typeof_sm",
                "DROP VIEW typeof_sv2",
                "DROP VIEW typeof_sv",
                "DROP TABLE typeof_s")));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }
}

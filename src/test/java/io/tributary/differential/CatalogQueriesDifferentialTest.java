package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}

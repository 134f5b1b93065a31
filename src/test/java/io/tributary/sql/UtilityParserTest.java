package io.tributary.sql;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.RelationKind;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import io.tributary.common.types.TypeKind;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The utility statement parser, family by family: what each statement becomes, and its errors. */
class UtilityParserTest {

    private static UtilityStatement parse(String sql) {
        return UtilityParser.parse(sql).orElseThrow(() -> new AssertionError("not a utility statement: " + sql));
    }

    private static <T extends UtilityStatement> T parse(String sql, Class<T> type) {
        return assertInstanceOf(type, parse(sql));
    }

    /** Asserts the statement fails with {@code sqlState}; {@code position} 0 means no position. */
    private static TributaryException fails(String sql, String sqlState, int position) {
        TributaryException e = assertThrows(TributaryException.class, () -> UtilityParser.parse(sql));
        assertEquals(sqlState, e.sqlState(), e.getMessage());
        assertEquals(position, e.position(), e.getMessage());
        return e;
    }

    @Nested
    class Routing {
        @Test
        void queriesDmlAndOtherExplainsAreLeftToCalcite() {
            assertTrue(UtilityParser.parse("SELECT 1").isEmpty());
            assertTrue(UtilityParser.parse("INSERT INTO t VALUES (1)").isEmpty());
            assertTrue(UtilityParser.parse("SELECT set_config('a', 'b', false) FROM t")
                    .isEmpty());
            assertTrue(
                    UtilityParser.parse("SELECT set_config(name, 'b', false)").isEmpty());
            assertTrue(UtilityParser.parse("(SELECT 1)").isEmpty());
            assertTrue(UtilityParser.parse("").isEmpty());
        }

        @Test
        void aTrailingSemicolonIsAllowedAndAnythingElseAfterTheStatementIsNot() {
            parse("FLUSH;", UtilityStatement.Flush.class);
            TributaryException e = fails("FLUSH now", SqlState.SYNTAX_ERROR, 7);
            assertEquals("syntax error at or near \"now\"", e.getMessage());
            fails("FLUSH; FLUSH", SqlState.SYNTAX_ERROR, 8);
        }

        @Test
        void unsupportedCreateAndAlterKinds() {
            fails("CREATE TEMP VIEW v AS SELECT 1", SqlState.FEATURE_NOT_SUPPORTED, 0);
            fails("CREATE VIEW v WITH (security_barrier) AS SELECT 1", SqlState.FEATURE_NOT_SUPPORTED, 0);
            fails("CREATE INDEX i ON t USING gin (a)", SqlState.FEATURE_NOT_SUPPORTED, 0);
            fails("CREATE TEMP TABLE t (a int)", SqlState.FEATURE_NOT_SUPPORTED, 0);
            fails("ALTER SOURCE s SET x = 1", SqlState.FEATURE_NOT_SUPPORTED, 0);
            fails("ALTER SEQUENCE s AS integer", SqlState.FEATURE_NOT_SUPPORTED, 0);
            fails("ALTER SEQUENCE s OWNED BY NONE RESTART", SqlState.FEATURE_NOT_SUPPORTED, 0);
            fails("ALTER SEQUENCE s RESTART OWNED BY NONE", SqlState.FEATURE_NOT_SUPPORTED, 0);
            fails("REFRESH MATERIALIZED VIEW m WITH NO DATA", SqlState.FEATURE_NOT_SUPPORTED, 0);
        }

        @Test
        void lexerErrorsCarryTheirPosition() {
            fails("SET a = 'open", SqlState.SYNTAX_ERROR, 9);
            fails("SHOW \"open", SqlState.SYNTAX_ERROR, 6);
        }
    }

    @Nested
    class TableDdl {
        @Test
        void columnsTypesAndAColumnPrimaryKey() {
            UtilityStatement.CreateTable t = parse(
                    "CREATE TABLE IF NOT EXISTS public.t (id BIGINT PRIMARY KEY, v INT NOT NULL, s TEXT NULL)",
                    UtilityStatement.CreateTable.class);
            assertEquals("t", t.name());
            assertTrue(t.ifNotExists());
            assertEquals(
                    List.of(
                            new ColumnDef("id", DataType.BIGINT, true, false),
                            new ColumnDef("v", DataType.INTEGER, true, false),
                            new ColumnDef("s", DataType.TEXT, false, false)),
                    t.columns());
            assertArrayEquals(new int[] {0}, t.primaryKey());
            assertNull(t.source());
        }

        @Test
        void aTablePrimaryKeyKeepsItsOrderAndMakesColumnsNotNull() {
            UtilityStatement.CreateTable t =
                    parse("create table t (a int, b text, primary key (b, a))", UtilityStatement.CreateTable.class);
            assertArrayEquals(new int[] {1, 0}, t.primaryKey());
            assertTrue(t.columns().get(0).notNull());
            assertTrue(t.columns().get(1).notNull());
        }

        @Test
        void withoutAKeyTheHiddenRowIdIsTheKey() {
            UtilityStatement.CreateTable t = parse("CREATE TABLE t (a int)", UtilityStatement.CreateTable.class);
            assertEquals(2, t.columns().size());
            ColumnDef rowId = t.columns().get(1);
            assertEquals(TableDef.ROW_ID, rowId.name());
            assertTrue(rowId.hidden());
            assertArrayEquals(new int[] {1}, t.primaryKey());
        }

        @Test
        void keyErrors() {
            TributaryException e =
                    fails("CREATE TABLE t (a int PRIMARY KEY, PRIMARY KEY (a))", SqlState.INVALID_TABLE_DEFINITION, 36);
            assertEquals("multiple primary keys for table \"t\" are not allowed", e.getMessage());
            fails("CREATE TABLE t (a int, PRIMARY KEY (b))", SqlState.UNDEFINED_COLUMN, 0);
            fails("CREATE TABLE t (a int, PRIMARY KEY (a, a))", SqlState.DUPLICATE_COLUMN, 0);
        }

        @Test
        void defaultsAndIdentities() {
            UtilityStatement.CreateTable t = (UtilityStatement.CreateTable)
                    parse("CREATE TABLE t (a serial PRIMARY KEY, b int DEFAULT (1 + 2) NOT NULL, c text DEFAULT NULL,"
                            + " d timestamp DEFAULT now(), e bigint GENERATED BY DEFAULT AS IDENTITY)");
            assertEquals(ColumnDef.Identity.SERIAL, t.columns().get(0).identity());
            assertEquals("(1 + 2)", t.columns().get(1).defaultExpr());
            assertEquals(true, t.columns().get(1).notNull());
            assertEquals("NULL", t.columns().get(2).defaultExpr());
            assertEquals("now()", t.columns().get(3).defaultExpr());
            assertEquals(ColumnDef.Identity.BY_DEFAULT, t.columns().get(4).identity());
            assertEquals(true, t.columns().get(4).notNull());
        }

        @Test
        void createTableAsAndViews() {
            assertEquals(
                    new UtilityStatement.CreateTableAs(
                            "t", false, "SELECT 1", false, "CREATE TABLE t AS SELECT 1 WITH NO DATA"),
                    parse("CREATE TABLE t AS SELECT 1 WITH NO DATA"));
            assertEquals(
                    new UtilityStatement.CreateView(
                            "v", true, List.of("a"), "SELECT (1)", "CREATE OR REPLACE VIEW v (a) AS SELECT (1);"),
                    parse("CREATE OR REPLACE VIEW v (a) AS SELECT (1);"));
            assertEquals(
                    new UtilityStatement.DropView(List.of("v", "w"), true, true),
                    parse("DROP VIEW IF EXISTS v, w CASCADE"));
            assertEquals(
                    new UtilityStatement.Truncate(List.of("a", "b"), true), parse("TRUNCATE TABLE ONLY a, b CASCADE"));
            fails("TRUNCATE a RESTART IDENTITY", SqlState.FEATURE_NOT_SUPPORTED, 0);
        }

        @Test
        void columnErrors() {
            fails("CREATE TABLE t (a int, a text)", SqlState.DUPLICATE_COLUMN, 24);
            fails("CREATE TABLE t (" + TableDef.ROW_ID + " int)", SqlState.DUPLICATE_COLUMN, 0);
            fails("CREATE TABLE t (a int CHECK (a > 0) NO INHERIT)", SqlState.FEATURE_NOT_SUPPORTED, 0);
            fails("CREATE TABLE t (a int, UNIQUE NULLS NOT DISTINCT (a))", SqlState.FEATURE_NOT_SUPPORTED, 0);
            fails("CREATE TABLE t (PRIMARY KEY (a))", SqlState.FEATURE_NOT_SUPPORTED, 0);
            fails("CREATE TABLE t (a int GENERATED ALWAYS AS (1) STORED)", SqlState.FEATURE_NOT_SUPPORTED, 0);
            fails("CREATE TABLE t (a text GENERATED ALWAYS AS IDENTITY)", SqlState.INVALID_PARAMETER_VALUE, 0);
            fails("CREATE TABLE t (a serial DEFAULT 1)", SqlState.SYNTAX_ERROR, 0);
            fails("CREATE TABLE t (a int", SqlState.SYNTAX_ERROR, 22);
            fails("CREATE TABLE t (a int,)", SqlState.SYNTAX_ERROR, 23);
        }

        @Test
        void schemas() {
            fails("CREATE TABLE other.t (a int)", SqlState.INVALID_SCHEMA_NAME, 0);
            fails("DROP TABLE tributary_catalog.jobs", SqlState.WRONG_OBJECT_TYPE, 0);
            assertEquals(
                    "t",
                    parse("CREATE TABLE dev.public.t (a int)", UtilityStatement.CreateTable.class)
                            .name());
        }

        @Test
        void drop() {
            UtilityStatement.Drop d = parse("DROP TABLE IF EXISTS a, public.b CASCADE", UtilityStatement.Drop.class);
            assertEquals(new UtilityStatement.Drop(List.of("a", "b"), RelationKind.TABLE, true, true), d);
            assertEquals(
                    new UtilityStatement.Drop(List.of("m"), RelationKind.MATERIALIZED_VIEW, false, false),
                    parse("DROP MATERIALIZED VIEW m RESTRICT"));
            fails("DROP TABLE", SqlState.SYNTAX_ERROR, 11);
        }
    }

    @Nested
    class ColumnTypes {
        private DataType typeOf(String type) {
            return parse("CREATE TABLE t (c " + type + ")", UtilityStatement.CreateTable.class)
                    .columns()
                    .get(0)
                    .type();
        }

        @Test
        void namesAndAliases() {
            assertEquals(DataType.BOOLEAN, typeOf("bool"));
            assertEquals(DataType.SMALLINT, typeOf("int2"));
            assertEquals(DataType.INTEGER, typeOf("integer"));
            assertEquals(DataType.BIGINT, typeOf("INT8"));
            assertEquals(DataType.REAL, typeOf("float4"));
            assertEquals(DataType.DOUBLE, typeOf("double precision"));
            assertEquals(DataType.TEXT, typeOf("string"));
            assertEquals(DataType.TIMESTAMPTZ, typeOf("timestamptz"));
            assertEquals(DataType.BYTEA, typeOf("bytea"));
            assertEquals(DataType.INTERVAL, typeOf("interval"));
        }

        @Test
        void modifiers() {
            assertEquals(DataType.REAL, typeOf("float(24)"));
            assertEquals(DataType.DOUBLE, typeOf("float(25)"));
            assertEquals(DataType.numeric(10, 2), typeOf("numeric(10, 2)"));
            assertEquals(DataType.numeric(5, 0), typeOf("decimal(5)"));
            assertEquals(DataType.NUMERIC, typeOf("numeric"));
            assertEquals(DataType.varchar(20), typeOf("character varying(20)"));
            assertEquals(DataType.bpchar(3), typeOf("char(3)"));
            assertEquals(DataType.bpchar(2), typeOf("character(2)"));
            assertEquals(DataType.bpchar(1), typeOf("char"));
            assertEquals(DataType.bpchar(-1), typeOf("bpchar"));
            assertEquals(DataType.VARCHAR, typeOf("varchar"));
            assertEquals(DataType.withFractionDigits(TypeKind.TIMESTAMPTZ, 3), typeOf("timestamp(3) with time zone"));
            assertEquals(DataType.TIMESTAMP, typeOf("timestamp without time zone"));
            assertEquals(DataType.withFractionDigits(TypeKind.TIME, 6), typeOf("time(6) without time zone"));
            assertEquals(DataType.JSONB, typeOf("jsonb"));
            assertEquals(DataType.JSON, typeOf("json"));
        }

        @Test
        void errors() {
            TributaryException e = fails("CREATE TABLE t (c widget)", SqlState.UNDEFINED_OBJECT, 19);
            assertEquals("type \"widget\" does not exist", e.getMessage());
            fails("CREATE TABLE t (c money)", SqlState.FEATURE_NOT_SUPPORTED, 0);
            fails("CREATE TABLE t (c char(0))", SqlState.INVALID_PARAMETER_VALUE, 19);
            fails("CREATE TABLE t (c char(3)[])", SqlState.FEATURE_NOT_SUPPORTED, 0);
            fails("CREATE TABLE t (c time with time zone)", SqlState.FEATURE_NOT_SUPPORTED, 0);
            fails("CREATE TABLE t (c uuid[])", SqlState.FEATURE_NOT_SUPPORTED, 0);
            fails("CREATE TABLE t (c numeric(0))", SqlState.INVALID_PARAMETER_VALUE, 19);
            fails("CREATE TABLE t (c numeric(4, 5))", SqlState.INVALID_PARAMETER_VALUE, 19);
            fails("CREATE TABLE t (c varchar(0))", SqlState.INVALID_PARAMETER_VALUE, 0);
            fails("CREATE TABLE t (c double)", SqlState.SYNTAX_ERROR, 25);
            fails("CREATE TABLE t (c 5)", SqlState.SYNTAX_ERROR, 19);
        }

        @Test
        void everyPlainNameInTheTableIsAColumnType() {
            for (Map.Entry<String, DataType> e : PgTypeNames.all().entrySet()) {
                if (!e.getKey().equals("double")) {
                    assertEquals(e.getValue(), typeOf(e.getKey()), e.getKey());
                }
            }
        }
    }

    @Nested
    class SourceDdl {
        @Test
        void connectorOptionsAndFormat() {
            UtilityStatement.CreateTable t = parse(
                    "CREATE TABLE t (a int) WITH (Connector = 'FILES', path = '/d',"
                            + " fields.a.kind = 'seq', rows = 10, min = -5) FORMAT PLAIN ENCODE CSV (delimiter = ';')",
                    UtilityStatement.CreateTable.class);
            UtilityStatement.SourceClause s = t.source();
            assertEquals("files", s.connector());
            assertEquals(
                    List.of("path", "fields.a.kind", "rows", "min"),
                    List.copyOf(s.options().keySet()));
            assertEquals("10", s.options().get("rows"));
            assertEquals("-5", s.options().get("min"));
            assertEquals("PLAIN", s.format());
            assertEquals("CSV", s.encode());
            assertEquals(Map.of("delimiter", ";"), s.formatOptions());
        }

        @Test
        void escapeStringsAreStringsWithTheirEscapesApplied() {
            UtilityStatement.SourceClause s = parse(
                            "CREATE TABLE t (a int) WITH (connector = 'files', path = e'/d\\\\x')"
                                    + " FORMAT PLAIN ENCODE CSV (delimiter = E'\\t')",
                            UtilityStatement.CreateTable.class)
                    .source();
            assertEquals(Map.of("delimiter", "\t"), s.formatOptions());
            assertEquals("/d\\x", s.options().get("path"));
        }

        @Test
        void withoutFormat() {
            UtilityStatement.SourceClause s = parse(
                            "CREATE TABLE t (a int) WITH (connector = 'datagen')", UtilityStatement.CreateTable.class)
                    .source();
            assertNull(s.format());
            assertNull(s.encode());
            assertEquals(Map.of(), s.formatOptions());
        }

        @Test
        void errors() {
            fails("CREATE TABLE t (a int) WITH (path = '/d')", SqlState.SYNTAX_ERROR, 24);
            TributaryException e =
                    fails("CREATE TABLE t (a int) WITH (connector = 'x', p = 'a', P = 'b')", SqlState.SYNTAX_ERROR, 56);
            assertEquals("option \"p\" specified more than once", e.getMessage());
            fails("CREATE TABLE t (a int) WITH (connector = files)", SqlState.SYNTAX_ERROR, 42);
            fails("CREATE TABLE t (a int) FORMAT PLAIN ENCODE CSV", SqlState.SYNTAX_ERROR, 24);
            fails(
                    "CREATE TABLE t (a int) WITH (connector = 'x') FORMAT UPSERT ENCODE JSON",
                    SqlState.FEATURE_NOT_SUPPORTED,
                    0);
            fails(
                    "CREATE TABLE t (a int) WITH (connector = 'x') FORMAT PLAIN ENCODE AVRO",
                    SqlState.FEATURE_NOT_SUPPORTED,
                    0);
        }

        @Test
        void alterSourceRateLimit() {
            assertEquals(
                    new UtilityStatement.AlterSourceRateLimit("t", 500),
                    parse("ALTER TABLE t SET SOURCE_RATE_LIMIT = 500"));
            assertEquals(
                    new UtilityStatement.AlterSourceRateLimit("t", -1),
                    parse("ALTER TABLE public.t SET source_rate_limit TO DEFAULT"));
            fails("ALTER TABLE t SET SOURCE_RATE_LIMIT = 1.5", SqlState.INVALID_PARAMETER_VALUE, 39);
            fails("ALTER TABLE t SET SOURCE_RATE_LIMIT = 99999999999999999999", SqlState.INVALID_PARAMETER_VALUE, 39);
            fails("ALTER TABLE t ALTER COLUMN b TYPE bigint", SqlState.FEATURE_NOT_SUPPORTED, 0);
            fails("ALTER TABLE t SET PARALLELISM = 2", SqlState.FEATURE_NOT_SUPPORTED, 0);
            fails("ALTER TABLE t SET SOURCE_RATE_LIMIT 5", SqlState.SYNTAX_ERROR, 37);
        }
    }

    @Nested
    class AlterColumns {
        @Test
        void addColumnTakesTheColumnDefinitionOfCreateTable() {
            UtilityStatement.AddColumn a = parse(
                    "ALTER TABLE IF EXISTS t ADD COLUMN IF NOT EXISTS b int NOT NULL DEFAULT 3",
                    UtilityStatement.AddColumn.class);
            assertEquals("t", a.table());
            assertEquals(true, a.ifExists());
            assertEquals(true, a.ifNotExists());
            assertEquals("b", a.column().name());
            assertEquals(true, a.column().notNull());
            assertEquals("3", a.column().defaultExpr());
            assertEquals(
                    "c",
                    parse("ALTER TABLE t ADD c text", UtilityStatement.AddColumn.class)
                            .column()
                            .name());
            fails("ALTER TABLE t ADD COLUMN b serial", SqlState.FEATURE_NOT_SUPPORTED, 0);
            fails("ALTER TABLE t ADD COLUMN b int PRIMARY KEY", SqlState.FEATURE_NOT_SUPPORTED, 0);
            fails("ALTER TABLE t ADD COLUMN b int, ADD COLUMN c int", SqlState.FEATURE_NOT_SUPPORTED, 0);
        }

        @Test
        void dropAndRename() {
            assertEquals(
                    new UtilityStatement.DropColumn("t", false, "b", true, true),
                    parse("ALTER TABLE t DROP COLUMN IF EXISTS b CASCADE"));
            assertEquals(
                    new UtilityStatement.DropColumn("t", true, "b", false, false),
                    parse("ALTER TABLE IF EXISTS t DROP b"));
            assertEquals(
                    new UtilityStatement.RenameColumn("t", false, "a", "b"),
                    parse("ALTER TABLE t RENAME COLUMN a TO b"));
            assertEquals(new UtilityStatement.RenameColumn("t", false, "a", "b"), parse("ALTER TABLE t RENAME a TO b"));
            assertEquals(
                    new UtilityStatement.RenameRelation("t", false, "u", io.tributary.catalog.RelationKind.TABLE),
                    parse("ALTER TABLE t RENAME TO u"));
            assertEquals(
                    new UtilityStatement.RenameRelation(
                            "m", true, "w", io.tributary.catalog.RelationKind.MATERIALIZED_VIEW),
                    parse("ALTER MATERIALIZED VIEW IF EXISTS m RENAME TO w"));
            fails("ALTER TABLE t RENAME CONSTRAINT a TO b", SqlState.FEATURE_NOT_SUPPORTED, 0);
            fails("ALTER TABLE IF EXISTS t ADD CHECK (a > 0)", SqlState.FEATURE_NOT_SUPPORTED, 0);
        }
    }

    @Nested
    class ViewsAndJobs {
        @Test
        void createMaterializedViewKeepsTheQueryText() {
            String sql = "CREATE MATERIALIZED VIEW IF NOT EXISTS m AS SELECT a, count(*) FROM t GROUP BY a ;";
            UtilityStatement.CreateMaterializedView v = parse(sql, UtilityStatement.CreateMaterializedView.class);
            assertEquals("m", v.name());
            assertTrue(v.ifNotExists());
            assertEquals("SELECT a, count(*) FROM t GROUP BY a", v.query());
            assertEquals(sql, v.sql());
            assertTrue(v.withData());
        }

        @Test
        void withNoDataClosesTheQuery() {
            for (String sql : List.of(
                    "CREATE MATERIALIZED VIEW m AS WITH x AS (SELECT 1 AS with) SELECT * FROM x WITH NO DATA;",
                    "CREATE MATERIALIZED VIEW m AS\n WITH x AS (SELECT 1 AS with) SELECT * FROM x\n  WITH NO DATA")) {
                UtilityStatement.CreateMaterializedView v = parse(sql, UtilityStatement.CreateMaterializedView.class);
                assertEquals("WITH x AS (SELECT 1 AS with) SELECT * FROM x", v.query(), sql);
                assertEquals(false, v.withData(), sql);
            }
            UtilityStatement.CreateMaterializedView v = parse(
                    "CREATE MATERIALIZED VIEW m AS SELECT a FROM t WITH DATA",
                    UtilityStatement.CreateMaterializedView.class);
            assertEquals("SELECT a FROM t", v.query());
            assertTrue(v.withData());
        }

        @Test
        void explainCreateMaterializedView() {
            UtilityStatement.ExplainCreateMaterializedView e = parse(
                    "EXPLAIN CREATE MATERIALIZED VIEW m AS SELECT 1",
                    UtilityStatement.ExplainCreateMaterializedView.class);
            assertEquals("m", e.name());
            assertEquals("SELECT 1", e.query());
            fails("EXPLAIN CREATE TABLE t (a int)", SqlState.FEATURE_NOT_SUPPORTED, 0);
        }

        @Test
        void createErrors() {
            fails("CREATE MATERIALIZED VIEW m (x) AS SELECT 1", SqlState.FEATURE_NOT_SUPPORTED, 0);
            fails("CREATE MATERIALIZED VIEW m WITH (a = 'b') AS SELECT 1", SqlState.FEATURE_NOT_SUPPORTED, 0);
            fails("CREATE MATERIALIZED VIEW m AS", SqlState.SYNTAX_ERROR, 30);
            fails("CREATE MATERIALIZED VIEW m SELECT 1", SqlState.SYNTAX_ERROR, 28);
        }

        @Test
        void alterMaterializedView() {
            assertEquals(
                    new UtilityStatement.AlterViewParallelism("m", 4),
                    parse("ALTER MATERIALIZED VIEW m SET PARALLELISM = 4"));
            assertEquals(
                    new UtilityStatement.AlterViewBackfillRate("m", 1000),
                    parse("ALTER MATERIALIZED VIEW m SET BACKFILL_RATE_LIMIT TO 1000"));
            assertEquals(
                    new UtilityStatement.AlterViewBackfillRate("m", -1),
                    parse("ALTER MATERIALIZED VIEW m SET BACKFILL_RATE_LIMIT = DEFAULT"));
            fails("ALTER MATERIALIZED VIEW m SET PARALLELISM = 0", SqlState.INVALID_PARAMETER_VALUE, 45);
            fails("ALTER MATERIALIZED VIEW m SET PARALLELISM = 257", SqlState.INVALID_PARAMETER_VALUE, 45);
            TributaryException e = fails(
                    "ALTER MATERIALIZED VIEW m SET BACKFILL_RATE_LIMIT = -3", SqlState.INVALID_PARAMETER_VALUE, 53);
            assertEquals("invalid value for backfill_rate_limit: -3", e.getMessage());
            fails("ALTER MATERIALIZED VIEW m SET BACKFILL_RATE_LIMIT = 2.5", SqlState.INVALID_PARAMETER_VALUE, 53);
            fails("ALTER MATERIALIZED VIEW m SET BACKFILL_RATE_LIMIT = fast", SqlState.SYNTAX_ERROR, 53);
            fails("ALTER MATERIALIZED VIEW m SET owner = x", SqlState.FEATURE_NOT_SUPPORTED, 0);
        }

        @Test
        void cancelAndWait() {
            assertEquals(new UtilityStatement.CancelJobs(List.of(1002, 7)), parse("CANCEL JOBS 1002, 7"));
            assertEquals(new UtilityStatement.CancelJobs(List.of(3)), parse("cancel job 3"));
            fails("CANCEL QUERY 3", SqlState.SYNTAX_ERROR, 8);
            fails("CANCEL JOBS x", SqlState.SYNTAX_ERROR, 13);
            TributaryException big = fails("CANCEL JOBS 99999999999", SqlState.NUMERIC_VALUE_OUT_OF_RANGE, 13);
            assertEquals("value \"99999999999\" is out of range for type integer", big.getMessage());
            fails("CREATE TABLE t (s VARCHAR(3000000000))", SqlState.NUMERIC_VALUE_OUT_OF_RANGE, 27);
            assertEquals(new UtilityStatement.Wait(null), parse("WAIT"));
            assertEquals(new UtilityStatement.Wait("m"), parse("WAIT MATERIALIZED VIEW public.m"));
        }
    }

    @Nested
    class SessionStatements {
        @Test
        void set() {
            assertEquals(
                    new UtilityStatement.SetVariable("search_path", "public, dev"),
                    parse("SET search_path TO public, dev"));
            assertEquals(
                    new UtilityStatement.SetVariable("extra_float_digits", "-3"), parse("SET extra_float_digits = -3"));
            assertEquals(new UtilityStatement.SetVariable("timezone", "UTC"), parse("SET TIME ZONE 'UTC'"));
            assertEquals(new UtilityStatement.SetVariable("timezone", null), parse("SET TIME ZONE LOCAL"));
            assertEquals(
                    new UtilityStatement.SetVariable("timezone", "<+02>-02"),
                    parse("SET TIME ZONE INTERVAL '+02:00' HOUR TO MINUTE"));
            assertEquals(
                    new UtilityStatement.SetVariable("timezone", "<-05:30>+05:30"),
                    parse("SET TIME ZONE INTERVAL '-5.5' HOUR"));
            assertEquals(
                    new UtilityStatement.SetVariable("implicit_flush", null),
                    parse("SET SESSION implicit_flush = DEFAULT"));
            assertEquals(new UtilityStatement.NoOp("SET"), parse("SET TRANSACTION ISOLATION LEVEL READ COMMITTED"));
            assertEquals(
                    new UtilityStatement.NoOp("SET"), parse("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY"));
            fails("SET x 1", SqlState.SYNTAX_ERROR, 7);
            fails("SET x =", SqlState.SYNTAX_ERROR, 8);
            fails("SET = 1", SqlState.SYNTAX_ERROR, 5);
        }

        @Test
        void resetShowAndDescribe() {
            assertEquals(new UtilityStatement.ResetVariable("all"), parse("RESET ALL"));
            assertEquals(new UtilityStatement.ShowVariable("backfill_rate_limit"), parse("SHOW BACKFILL_RATE_LIMIT"));
            assertEquals(
                    new UtilityStatement.ShowVariable("transaction_isolation"),
                    parse("SHOW TRANSACTION ISOLATION LEVEL"));
            assertInstanceOf(UtilityStatement.ShowTables.class, parse("SHOW TABLES"));
            assertInstanceOf(UtilityStatement.ShowMaterializedViews.class, parse("SHOW MATERIALIZED VIEWS"));
            assertInstanceOf(UtilityStatement.ShowJobs.class, parse("SHOW JOBS"));
            assertEquals(new UtilityStatement.ShowColumns("t"), parse("SHOW COLUMNS FROM public.t"));
            assertEquals(new UtilityStatement.ShowColumns("t"), parse("DESCRIBE t"));
            fails("SHOW COLUMNS t", SqlState.SYNTAX_ERROR, 14);
            fails("SHOW 5", SqlState.SYNTAX_ERROR, 6);
            fails("RESET", SqlState.SYNTAX_ERROR, 6);
        }

        @Test
        void transactionsFlushAndDiscard() {
            assertEquals(
                    new UtilityStatement.Transaction(UtilityStatement.TransactionVerb.START),
                    parse("START TRANSACTION READ WRITE"));
            assertEquals(new UtilityStatement.Transaction(UtilityStatement.TransactionVerb.BEGIN), parse("BEGIN"));
            assertEquals(new UtilityStatement.Transaction(UtilityStatement.TransactionVerb.COMMIT), parse("END WORK"));
            assertEquals(new UtilityStatement.Transaction(UtilityStatement.TransactionVerb.ROLLBACK), parse("ABORT"));
            fails("COMMIT PREPARED 'x'", SqlState.FEATURE_NOT_SUPPORTED, 0);
            fails("START WORK", SqlState.SYNTAX_ERROR, 7);
            assertInstanceOf(UtilityStatement.Flush.class, parse("flush"));
            assertEquals(new UtilityStatement.NoOp("DISCARD ALL"), parse("DISCARD ALL"));
            fails("DISCARD PLANS", SqlState.SYNTAX_ERROR, 9);
        }
    }

    @Nested
    class Copy {
        @Test
        void textDefaults() {
            UtilityStatement.CopyFrom c = parse("COPY t (a, b) FROM STDIN", UtilityStatement.CopyFrom.class);
            assertEquals("t", c.table());
            assertFalse(c.systemTable());
            assertEquals(List.of("a", "b"), c.columns());
            assertEquals(new UtilityStatement.CopyFormat(false, '\t', "\\N", false, '"', '"'), c.format());
        }

        @Test
        void csvOptionsInBothForms() {
            UtilityStatement.CopyFormat expected = new UtilityStatement.CopyFormat(true, ';', "NULL", true, '\'', '\\');
            assertEquals(
                    expected,
                    parse(
                                    "COPY t FROM STDIN WITH (FORMAT csv, DELIMITER ';', NULL 'NULL', HEADER true,"
                                            + " QUOTE '''', ESCAPE '\\', ENCODING 'UTF8')",
                                    UtilityStatement.CopyFrom.class)
                            .format());
            assertEquals(
                    expected,
                    parse(
                                    "COPY t FROM STDIN CSV HEADER DELIMITER ';' NULL 'NULL' QUOTE '''' ESCAPE '\\'",
                                    UtilityStatement.CopyFrom.class)
                            .format());
            assertEquals(
                    new UtilityStatement.CopyFormat(true, ',', "", false, '"', '"'),
                    parse("COPY t FROM STDIN (FORMAT 'csv', HEADER off)", UtilityStatement.CopyFrom.class)
                            .format());
        }

        @Test
        void aSystemTableIsMarked() {
            UtilityStatement.CopyFrom c =
                    parse("COPY tributary_catalog.jobs FROM STDIN", UtilityStatement.CopyFrom.class);
            assertTrue(c.systemTable());
            assertEquals("jobs", c.table());
        }

        @Test
        void errors() {
            fails("COPY t TO '/tmp/x'", SqlState.FEATURE_NOT_SUPPORTED, 0);
            fails("COPY (SELECT 1) TO PROGRAM 'cat'", SqlState.FEATURE_NOT_SUPPORTED, 0);
            fails("COPY (SELECT 1) FROM STDIN", SqlState.FEATURE_NOT_SUPPORTED, 0);
            fails("COPY t FROM '/tmp/x'", SqlState.FEATURE_NOT_SUPPORTED, 0);
            fails("COPY t FROM STDIN (FORMAT binary)", SqlState.FEATURE_NOT_SUPPORTED, 0);
            fails("COPY t FROM STDIN (DELIMITER '::')", SqlState.FEATURE_NOT_SUPPORTED, 0);
            fails("COPY t FROM STDIN (ENCODING 'LATIN1')", SqlState.FEATURE_NOT_SUPPORTED, 0);
            TributaryException e = fails("COPY t FROM STDIN (FORCE_QUOTE *)", SqlState.SYNTAX_ERROR, 20);
            assertEquals("option \"force_quote\" not recognized", e.getMessage());
            fails("COPY t FROM STDIN (CSV", SqlState.SYNTAX_ERROR, 23);
            fails("COPY t FROM STDIN NULL", SqlState.SYNTAX_ERROR, 23);
        }
    }

    @Nested
    class ToolStatements {
        @Test
        void prepareExecuteDeallocate() {
            UtilityStatement.Prepare p =
                    parse("PREPARE q (int, numeric(10,2)) AS SELECT $1 + $2 FROM t;", UtilityStatement.Prepare.class);
            assertEquals("q", p.name());
            assertEquals(List.of("int", "numeric(10,2)"), p.types());
            assertEquals("SELECT $1 + $2 FROM t", p.body());
            assertEquals(
                    new UtilityStatement.Execute("q", List.of("1", "f(2, 3)")),
                    parse("EXECUTE q (1, f(2, 3))", UtilityStatement.Execute.class));
            assertEquals(
                    new UtilityStatement.Execute("q", List.of()), parse("EXECUTE q", UtilityStatement.Execute.class));
            assertEquals(
                    new UtilityStatement.Deallocate("q"),
                    parse("DEALLOCATE PREPARE q", UtilityStatement.Deallocate.class));
            assertEquals(
                    new UtilityStatement.Deallocate(null), parse("DEALLOCATE ALL", UtilityStatement.Deallocate.class));
            assertEquals(
                    "SELECT CAST((1) AS int) + (x || 'y')",
                    PreparedBody.bind(
                            new UtilityStatement.Prepare("q", List.of("int"), "SELECT $1 + $2"),
                            List.of("1", "x || 'y'")));
            assertEquals(
                    "SELECT '$1', (7)",
                    PreparedBody.bind(new UtilityStatement.Prepare("q", List.of(), "SELECT '$1', $1"), List.of("7")));
        }

        @Test
        void explainOfAQuery() {
            assertEquals(
                    new UtilityStatement.ExplainQuery("SELECT 1", 8),
                    parse("EXPLAIN SELECT 1;", UtilityStatement.ExplainQuery.class));
            assertEquals(
                    new UtilityStatement.ExplainQuery("WITH x AS (SELECT 1) SELECT * FROM x", 35),
                    parse(
                            "EXPLAIN (FORMAT TEXT, COSTS false) WITH x AS (SELECT 1) SELECT * FROM x",
                            UtilityStatement.ExplainQuery.class));
            fails("EXPLAIN ANALYZE SELECT 1", SqlState.FEATURE_NOT_SUPPORTED, 0);
            fails("EXPLAIN (FORMAT JSON) SELECT 1", SqlState.FEATURE_NOT_SUPPORTED, 0);
            fails("EXPLAIN DELETE FROM t", SqlState.FEATURE_NOT_SUPPORTED, 0);
        }

        @Test
        void copyToStdout() {
            UtilityStatement.CopyTo table =
                    parse("COPY t (a, \"B\") TO STDOUT WITH (FORMAT csv, HEADER)", UtilityStatement.CopyTo.class);
            assertEquals("SELECT \"a\", \"B\" FROM \"t\"", table.query());
            assertTrue(table.format().csv());
            assertTrue(table.format().header());
            UtilityStatement.CopyTo query =
                    parse("COPY (SELECT (1), 'x)' FROM t) TO STDOUT", UtilityStatement.CopyTo.class);
            assertEquals("SELECT (1), 'x)' FROM t", query.query());
            assertEquals('\t', query.format().delimiter());
        }

        @Test
        void setConfigAsAStatement() {
            assertEquals(
                    new UtilityStatement.SetConfig("search_path", "", false),
                    parse("SELECT pg_catalog.set_config('search_path', '', false);", UtilityStatement.SetConfig.class));
        }
    }

    @Nested
    class WatermarkClauses {
        @Test
        void theClauseGivesTheColumnAndTheDelay() {
            UtilityStatement.CreateTable t = parse(
                    "CREATE TABLE b (id INT, ts TIMESTAMP, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)",
                    UtilityStatement.CreateTable.class);
            assertEquals(new io.tributary.catalog.WatermarkDef(1, 5_000_000L), t.watermark());
            UtilityStatement.CreateTable before = parse(
                    "CREATE TABLE b (WATERMARK FOR ts AS ts - INTERVAL '1 minute', ts TIMESTAMPTZ)",
                    UtilityStatement.CreateTable.class);
            assertEquals(new io.tributary.catalog.WatermarkDef(0, 60_000_000L), before.watermark());
        }

        @Test
        void errorsPointAtTheColumnInTheClause() {
            // 1-based positions, at the column name after FOR
            fails(
                    "CREATE TABLE b (ts TIMESTAMP, WATERMARK FOR nope AS nope - INTERVAL '5' SECOND)",
                    SqlState.UNDEFINED_COLUMN,
                    45);
            fails("CREATE TABLE b (v INT, WATERMARK FOR v AS v - INTERVAL '5' SECOND)", SqlState.DATATYPE_MISMATCH, 38);
            fails("CREATE TABLE b (ts TIMESTAMP, WATERMARK FOR ts AS ts * 2)", SqlState.FEATURE_NOT_SUPPORTED, 54);
            fails(
                    "CREATE TABLE b (ts TIMESTAMP, WATERMARK FOR ts AS ts - INTERVAL '1' MONTH)",
                    SqlState.INVALID_PARAMETER_VALUE,
                    65);
        }
    }
}

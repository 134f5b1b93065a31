package io.tributary.sql;

import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.RelationKind;
import java.util.List;
import java.util.Map;

/** Statements parsed by Tributary's own front end rather than Calcite: DDL and session commands. */
public sealed interface UtilityStatement {

    /**
     * {@code CREATE TABLE}, or {@code CREATE SOURCE} when {@code kind} is {@link RelationKind#SOURCE};
     * {@code uniques} its UNIQUE constraints (unnamed ones with a null name, ids unset);
     * {@code source} is the connector clause, null for a plain table; {@code watermark} the WATERMARK
     * FOR clause, null without one.
     */
    record CreateTable(
            String name,
            List<ColumnDef> columns,
            int[] primaryKey,
            boolean ifNotExists,
            String sql,
            SourceClause source,
            io.tributary.catalog.WatermarkDef watermark,
            List<io.tributary.catalog.CheckDef> checks,
            RelationKind kind,
            List<io.tributary.catalog.IndexDef> uniques,
            List<io.tributary.catalog.ForeignKeyDef> foreignKeys)
            implements UtilityStatement {
        public CreateTable(String name, List<ColumnDef> columns, int[] primaryKey, boolean ifNotExists, String sql) {
            this(
                    name,
                    columns,
                    primaryKey,
                    ifNotExists,
                    sql,
                    null,
                    null,
                    List.of(),
                    RelationKind.TABLE,
                    List.of(),
                    List.of());
        }
    }

    /**
     * {@code CREATE [UNIQUE] INDEX [IF NOT EXISTS] [name] ON table [USING btree] (columns)}; {@code
     * name} null for PostgreSQL's default, {@code table} the catalog key.
     */
    record CreateIndex(String name, String table, List<String> columns, boolean unique, boolean ifNotExists)
            implements UtilityStatement {}

    /** {@code DROP INDEX [IF EXISTS] names}: catalog keys (schema-qualified outside public). */
    record DropIndex(List<String> names, boolean ifExists) implements UtilityStatement {}

    /** {@code ALTER TABLE t ADD [CONSTRAINT c] UNIQUE (columns)}; {@code constraint} null when unnamed. */
    record AddUnique(String table, String constraint, List<String> columns) implements UtilityStatement {}

    /**
     * {@code WITH (connector = '...', name = 'value', ...) [FORMAT f ENCODE e [(options)]]} of a
     * CREATE TABLE. Option names are lower-cased; {@code options} excludes {@code connector};
     * {@code format} and {@code encode} are upper-cased, null without a FORMAT clause.
     */
    record SourceClause(
            String connector,
            Map<String, String> options,
            String format,
            String encode,
            Map<String, String> formatOptions) {}

    /**
     * {@code CREATE TABLE name AS query [WITH [NO] DATA]}; {@code query} is the text after AS,
     * {@code sql} the whole statement.
     */
    record CreateTableAs(String name, boolean ifNotExists, String query, boolean withData, String sql)
            implements UtilityStatement {}

    /**
     * {@code CREATE [OR REPLACE] VIEW name [(columns)] AS query}; {@code columns} empty without a
     * list, {@code query} the text after AS, {@code sql} the whole statement.
     */
    record CreateView(String name, boolean orReplace, List<String> columns, String query, String sql)
            implements UtilityStatement {}

    /** {@code DROP VIEW [IF EXISTS] name [, ...] [CASCADE | RESTRICT]}. */
    record DropView(List<String> names, boolean ifExists, boolean cascade) implements UtilityStatement {}

    /** {@code TRUNCATE [TABLE] name [, ...]}. */
    /** {@code ALTER TABLE table ADD [CONSTRAINT name] FOREIGN KEY (columns) REFERENCES ...}. */
    record AddForeignKey(String table, io.tributary.catalog.ForeignKeyDef constraint) implements UtilityStatement {}

    /** {@code TRUNCATE names [CASCADE]}. */
    record Truncate(List<String> names, boolean cascade) implements UtilityStatement {}

    /**
     * {@code LOCK [TABLE] [ONLY] name [, ...] [IN mode MODE] [NOWAIT]}: a reader sees one snapshot
     * per statement and writers never block it, so a lock only checks that the relations exist.
     */
    record Lock(List<String> names) implements UtilityStatement {}

    /** {@code ALTER TABLE name SET SOURCE_RATE_LIMIT = n}; {@code rowsPerSecond} -1 for DEFAULT (unlimited). */
    record AlterSourceRateLimit(String table, long rowsPerSecond) implements UtilityStatement {}

    /**
     * {@code ALTER TABLE [ONLY] name ADD [CONSTRAINT constraint] PRIMARY KEY (columns)};
     * {@code constraint} null when not named.
     */
    record AddPrimaryKey(String table, String constraint, List<String> columns) implements UtilityStatement {}

    /** {@code ALTER TABLE table ADD [CONSTRAINT n] CHECK (...)}; the check is unnamed unless written so. */
    record AddCheck(String table, io.tributary.catalog.CheckDef check) implements UtilityStatement {}

    /** {@code ALTER TABLE table DROP CONSTRAINT [IF EXISTS] name [RESTRICT | CASCADE]}. */
    record DropConstraint(String table, String name, boolean ifExists) implements UtilityStatement {}

    /**
     * {@code ALTER TABLE [IF EXISTS] t ADD [COLUMN] [IF NOT EXISTS] c type [NOT NULL] [DEFAULT
     * expr]}; {@code ifExists} is the table's, {@code ifNotExists} the column's.
     */
    record AddColumn(String table, boolean ifExists, io.tributary.catalog.ColumnDef column, boolean ifNotExists)
            implements UtilityStatement {}

    /**
     * {@code ALTER TABLE [IF EXISTS] t DROP [COLUMN] [IF EXISTS] c [RESTRICT | CASCADE]};
     * {@code ifExists} is the table's, {@code columnIfExists} the column's.
     */
    record DropColumn(String table, boolean ifExists, String column, boolean columnIfExists, boolean cascade)
            implements UtilityStatement {}

    /** {@code ALTER TABLE [IF EXISTS] t RENAME [COLUMN] from TO to}. */
    record RenameColumn(String table, boolean ifExists, String from, String to) implements UtilityStatement {}

    /**
     * {@code ALTER {TABLE | MATERIALIZED VIEW} [IF EXISTS] name RENAME TO newName}; {@code kind}
     * is the kind the statement names.
     */
    record RenameRelation(String name, boolean ifExists, String newName, io.tributary.catalog.RelationKind kind)
            implements UtilityStatement {}

    /** {@code CREATE SEQUENCE [IF NOT EXISTS] name [AS type] [options]}; {@code type} smallint, integer or bigint. */
    record CreateSequence(
            String name, String type, io.tributary.catalog.SequenceOptions.Given options, boolean ifNotExists)
            implements UtilityStatement {}

    /**
     * {@code ALTER SEQUENCE [IF EXISTS] name [options] [RESTART [[WITH] n]]}: {@code restart} when
     * RESTART is given, {@code restartWith} its value (null: the start).
     */
    record AlterSequence(
            String sequence,
            boolean ifExists,
            io.tributary.catalog.SequenceOptions.Given options,
            boolean restart,
            Long restartWith)
            implements UtilityStatement {}

    /** {@code ALTER SEQUENCE name OWNED BY table.column}; {@code table} null for {@code OWNED BY NONE}. */
    record AlterSequenceOwnedBy(String sequence, boolean ifExists, String table, String column)
            implements UtilityStatement {}

    /** {@code DROP SEQUENCE [IF EXISTS] name [, ...]}. */
    record DropSequence(List<String> names, boolean ifExists) implements UtilityStatement {}

    /** {@code ALTER TABLE t ALTER COLUMN c SET DEFAULT nextval('sequence'::regclass)}; {@code sequence} a catalog key. */
    record SetColumnSequence(String table, String column, String sequence) implements UtilityStatement {}

    /** {@code ALTER TABLE t ALTER COLUMN c ADD GENERATED ... AS IDENTITY}; {@code sequence} the named one's key or null. */
    record AddIdentity(String table, String column, boolean always, String sequence) implements UtilityStatement {}

    /** {@code DROP TABLE} or {@code DROP MATERIALIZED VIEW}. */
    record Drop(List<String> names, RelationKind kind, boolean ifExists, boolean cascade) implements UtilityStatement {}

    /**
     * {@code CREATE MATERIALIZED VIEW}; {@code query} is the text after AS (without a closing {@code
     * WITH [NO] DATA}), {@code sql} the whole statement; {@code withData} false for {@code WITH NO
     * DATA}: the view is its definition alone, unreadable until REFRESH creates its job.
     */
    record CreateMaterializedView(String name, boolean ifNotExists, String query, String sql, boolean withData)
            implements UtilityStatement {}

    /** {@code EXPLAIN CREATE MATERIALIZED VIEW}: the stream plan, without creating anything. */
    record ExplainCreateMaterializedView(String name, String query, String sql) implements UtilityStatement {}

    /** {@code ALTER MATERIALIZED VIEW name SET PARALLELISM = n}. */
    record AlterViewParallelism(String name, int parallelism) implements UtilityStatement {}

    /** {@code ALTER MATERIALIZED VIEW name SET BACKFILL_RATE_LIMIT = n}; -1 for DEFAULT (unlimited). */
    record AlterViewBackfillRate(String name, long rowsPerSecond) implements UtilityStatement {}

    /**
     * {@code CREATE SINK [IF NOT EXISTS] name {FROM relation | AS query} WITH (...)}: exactly one
     * of {@code relation} and {@code query} (the text after AS) is set; option names lower-cased,
     * values as written; {@code sql} is the whole statement.
     */
    record CreateSink(
            String name, boolean ifNotExists, String relation, String query, Map<String, String> options, String sql)
            implements UtilityStatement {}

    /** {@code DROP SINK [IF EXISTS] name}. */
    record DropSink(String name, boolean ifExists) implements UtilityStatement {}

    /** {@code ALTER SINK name SET SINK_RATE_LIMIT = n}; -1 for DEFAULT (unlimited). */
    record AlterSinkRateLimit(String name, long rowsPerSecond) implements UtilityStatement {}

    /** {@code ALTER SINK name RESYNC}: copy a fresh snapshot to the target again. */
    record ResyncSink(String name) implements UtilityStatement {}

    /** {@code CREATE DATABASE name}. */
    record CreateDatabase(String name) implements UtilityStatement {}

    /** {@code DROP DATABASE [IF EXISTS] name}. */
    record DropDatabase(String name, boolean ifExists) implements UtilityStatement {}

    /** {@code CREATE SCHEMA [IF NOT EXISTS] name}. */
    record CreateSchema(String name, boolean ifNotExists) implements UtilityStatement {}

    /**
     * {@code DROP SCHEMA [IF EXISTS] name [, ...] [CASCADE | RESTRICT]}; a schema holds no relations
     * yet, so CASCADE and RESTRICT drop the same.
     */
    record DropSchema(List<String> names, boolean ifExists, boolean cascade) implements UtilityStatement {}

    /** {@code SHOW DATABASES}. */
    record ShowDatabases() implements UtilityStatement {}

    /** {@code SHOW SINKS}. */
    record ShowSinks() implements UtilityStatement {}

    /** {@code SHOW SOURCES}: the relations made by CREATE SOURCE. */
    record ShowSources() implements UtilityStatement {}

    /** {@code SHOW JOBS}: the views being created. */
    record ShowJobs() implements UtilityStatement {}

    /** {@code CANCEL JOBS id [, id ...]}. */
    record CancelJobs(List<Integer> ids) implements UtilityStatement {}

    /** {@code WAIT} (every job, {@code view} null) or {@code WAIT MATERIALIZED VIEW view}. */
    record Wait(String view) implements UtilityStatement {}

    /** {@code REFRESH MATERIALIZED VIEW [CONCURRENTLY] view [WITH DATA]}. */
    record RefreshMaterializedView(String view, boolean concurrently) implements UtilityStatement {}

    record ShowTables() implements UtilityStatement {}

    record ShowMaterializedViews() implements UtilityStatement {}

    record ShowColumns(String table) implements UtilityStatement {}

    /** {@code SHOW name}; {@code name} is "all" for SHOW ALL. */
    record ShowVariable(String name) implements UtilityStatement {}

    /** {@code SET name = value}; value null means DEFAULT. */
    record SetVariable(String name, String value) implements UtilityStatement {}

    /** {@code RESET name}; "all" for RESET ALL. */
    record ResetVariable(String name) implements UtilityStatement {}

    record Flush() implements UtilityStatement {}

    enum TransactionVerb {
        BEGIN,
        /** {@code START TRANSACTION}: BEGIN under the name its command tag repeats. */
        START,
        COMMIT,
        ROLLBACK
    }

    record Transaction(TransactionVerb verb) implements UtilityStatement {}

    /** What a {@link Savepoint} statement does to the savepoint it names. */
    enum SavepointVerb {
        /** {@code SAVEPOINT name}: establishes a new savepoint (a re-used name hides the older one). */
        SET,
        /** {@code RELEASE [SAVEPOINT] name}: forgets it and every later savepoint, keeping their writes. */
        RELEASE,
        /** {@code ROLLBACK [WORK | TRANSACTION] TO [SAVEPOINT] name}: undoes the writes since it; it stays. */
        ROLLBACK_TO
    }

    /** A savepoint statement of a transaction block; {@code name} as an identifier (unquoted: lower case). */
    record Savepoint(SavepointVerb verb, String name) implements UtilityStatement {}

    /**
     * {@code COPY table [(columns)] FROM STDIN [options]}; columns empty means all visible ones.
     * {@code systemTable} is set when the table was named in the system table schema (which the
     * session refuses to write).
     */
    record CopyFrom(String table, boolean systemTable, List<String> columns, CopyFormat format)
            implements UtilityStatement {}

    /** {@code COPY table | (query) TO STDOUT [options]}: the rows of {@code query}, as {@code format} says. */
    record CopyTo(String query, CopyFormat format) implements UtilityStatement {}

    /**
     * {@code COPY tributary_snapshot('snapshot id', vnode, 'after key', limit [, 'binary' [, last
     * vnode]]) TO STDOUT}: a piece of an exported snapshot, read by a remote job worker, from vnode
     * {@code vnode} on through {@code lastVnode} (the same vnode when not given). {@code
     * afterKeyHex} is empty for the first vnode's start; {@code binary} asks for PostgreSQL's
     * binary COPY format (then {@code format} is ignored).
     */
    record CopySnapshot(
            String snapshotId,
            int vnode,
            int lastVnode,
            String afterKeyHex,
            int limit,
            boolean binary,
            CopyFormat format)
            implements UtilityStatement {}

    /** Options of COPY FROM STDIN and TO STDOUT. {@code nullString} is the text that means NULL. */
    record CopyFormat(boolean csv, char delimiter, String nullString, boolean header, char quote, char escape) {}

    /**
     * {@code PREPARE name [(type, ...)] AS statement}: {@code types} are the declared parameter
     * types as written (empty when none), {@code body} the statement's text with its {@code $n}.
     */
    record Prepare(String name, List<String> types, String body) implements UtilityStatement {}

    /** {@code EXECUTE name [(argument, ...)]}; each argument is an expression's text. */
    record Execute(String name, List<String> arguments) implements UtilityStatement {}

    /** {@code DEALLOCATE [PREPARE] name | ALL}; {@code name} null for ALL. */
    record Deallocate(String name) implements UtilityStatement {}

    /**
     * {@code EXPLAIN [(FORMAT TEXT)] query}: the query's text, which Calcite parses, and where it
     * starts in the statement (0-based), which an error's position in the query is moved by.
     */
    record ExplainQuery(String query, int offset) implements UtilityStatement {}

    /** {@code SELECT set_config(name, value, is_local)} with constant arguments. */
    record SetConfig(String name, String value, boolean local) implements UtilityStatement {}

    /**
     * {@code SELECT pg_sleep(seconds)} or {@code SELECT pg_sleep_for('interval')} as a whole
     * statement: waits {@code micros} (nothing when not positive), returning one {@code void} value.
     */
    record Sleep(String function, long micros) implements UtilityStatement {}

    /**
     * {@code SELECT pg_cancel_backend(pid)} or {@code SELECT pg_terminate_backend(pid)} as a whole
     * statement: cancels the statement of the session with process id {@code pid}, or ends that
     * session, returning whether there is one.
     *
     * @param terminate whether the session ends (else its statement is cancelled)
     */
    record SignalBackend(String function, long pid, boolean terminate) implements UtilityStatement {}

    /**
     * {@code ALTER kind name OWNER TO role}. The session's user is the one role and owns every
     * object, so the change leaves things as they are once the object and the role are found.
     *
     * @param kind TABLE, VIEW, MATERIALIZED VIEW, SEQUENCE, INDEX or SCHEMA, as the statement says it
     * @param name the relation's catalog key, or the schema's name
     * @param role the role named; null for CURRENT_USER, CURRENT_ROLE or SESSION_USER
     * @param ifExists whether {@code IF EXISTS} makes a missing relation a NOTICE
     */
    record OwnerChange(String kind, String name, String role, boolean ifExists) implements UtilityStatement {
        /** The command tag PostgreSQL answers with. */
        public String tag() {
            return "ALTER " + kind;
        }
    }

    /**
     * {@code COMMENT ON target name IS text}.
     *
     * @param name the relation's catalog key (a column's relation's for {@link CommentTarget#COLUMN}),
     *     or the schema's name
     * @param column the column's name for {@link CommentTarget#COLUMN}, else null
     * @param comment the comment; null to remove it ({@code IS NULL} or {@code IS ''})
     */
    record Comment(CommentTarget target, String name, String column, String comment) implements UtilityStatement {}

    /** What {@link Comment} names, as the statement says it. */
    enum CommentTarget {
        TABLE,
        VIEW,
        MATERIALIZED_VIEW,
        SCHEMA,
        COLUMN
    }

    /** A statement accepted for client compatibility that does nothing, e.g. DISCARD ALL. */
    record NoOp(String tag) implements UtilityStatement {}
}

package io.tributary.server.session;

import io.tributary.catalog.DatabaseEntry;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import io.tributary.meta.Cluster;
import io.tributary.meta.Database;
import io.tributary.sql.UtilityStatement;
import java.util.List;
import java.util.function.Consumer;

/**
 * {@code CREATE DATABASE}, {@code DROP DATABASE} and {@code SHOW DATABASES} for one session, which
 * is connected to {@code current}. Session thread only.
 */
final class DatabaseCommands {
    private final Cluster cluster;
    private final Database current;

    /** @param cluster the databases of the server; null for a server of one database, which refuses these */
    DatabaseCommands(Cluster cluster, Database current) {
        this.cluster = cluster;
        this.current = current;
    }

    /** Whether {@code statement} is one of these. */
    static boolean handles(UtilityStatement statement) {
        return statement instanceof UtilityStatement.CreateDatabase
                || statement instanceof UtilityStatement.DropDatabase
                || statement instanceof UtilityStatement.ShowDatabases;
    }

    /** The columns SHOW DATABASES returns, or null for the others. */
    static List<ColumnDesc> resultColumns(UtilityStatement statement) {
        return statement instanceof UtilityStatement.ShowDatabases
                ? List.of(new ColumnDesc("Name", DataType.TEXT))
                : null;
    }

    /**
     * Runs one of {@link #handles}'s statements.
     *
     * @param inTransaction whether an explicit transaction block is open (CREATE and DROP refuse to
     *     run in one, as in PostgreSQL: 25001)
     * @param notices where DROP DATABASE IF EXISTS of a missing database says it skipped
     */
    StatementResult execute(UtilityStatement statement, boolean inTransaction, Consumer<Session.Notice> notices) {
        if (statement instanceof UtilityStatement.ShowDatabases) {
            List<DatabaseEntry> all = current.catalog().databases();
            return new StatementResult.Rows(
                    resultColumns(statement),
                    new ListCursor(
                            all.stream().map(d -> new Object[] {d.name()}).toList()));
        }
        String verb = statement instanceof UtilityStatement.CreateDatabase ? "CREATE DATABASE" : "DROP DATABASE";
        if (cluster == null) {
            throw TributaryException.notSupported(verb + " on a server opened with one database");
        }
        if (inTransaction) {
            throw new TributaryException(
                    SqlState.ACTIVE_SQL_TRANSACTION, verb + " cannot run inside a transaction block");
        }
        if (statement instanceof UtilityStatement.CreateDatabase c) {
            cluster.create(c.name());
            return new StatementResult.Command("CREATE DATABASE");
        }
        UtilityStatement.DropDatabase d = (UtilityStatement.DropDatabase) statement;
        if (!cluster.drop(d.name(), d.ifExists(), current.name(), DatabaseCommands::checkNotRead)) {
            notices.accept(new Session.Notice(
                    "NOTICE",
                    SqlState.SUCCESSFUL_COMPLETION,
                    "database \"" + d.name() + "\" does not exist, skipping"));
        }
        return new StatementResult.Command("DROP DATABASE");
    }

    /**
     * @throws TributaryException 2BP01 when views of other databases read {@code db}'s relations,
     *     directly or through plain views (PostgreSQL has no views across databases, so the message
     *     follows its DROP TABLE's)
     */
    private static void checkNotRead(Database db) {
        List<OtherDatabaseReaders.Reader> readers = OtherDatabaseReaders.ofDatabase(db.catalog());
        if (readers.isEmpty()) {
            return;
        }
        String detail = OtherDatabaseReaders.detail(readers);
        throw new TributaryException(
                SqlState.DEPENDENT_OBJECTS_STILL_EXIST,
                "cannot drop database " + db.name() + " because views of other databases depend on it",
                0,
                detail,
                "Drop those views first, or drop what they read with DROP ... CASCADE.",
                null);
    }
}

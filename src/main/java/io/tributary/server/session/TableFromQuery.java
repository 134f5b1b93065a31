package io.tributary.server.session;

import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.RelationKind;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import io.tributary.common.types.TypeKind;
import io.tributary.common.types.Values;
import io.tributary.meta.Database;
import io.tributary.meta.write.TableWriter;
import io.tributary.sql.PreparedQuery;
import io.tributary.sql.QueryCursor;
import io.tributary.sql.ResultColumn;
import io.tributary.sql.StatementPlan;
import io.tributary.sql.UtilityStatement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * {@code CREATE TABLE name AS query}: a table without primary key whose columns are the query's
 * (names and types as the query labels them, all nullable), filled with the query's rows. The
 * table is created, then filled in a second epoch; if filling fails the table is dropped again, so
 * a client sees either the full table or none. (A crash between the two epochs leaves the empty
 * table behind.) Session thread only.
 */
final class TableFromQuery {
    private final Database db;
    private final Runnable cancelCheck;

    TableFromQuery(Database db, Runnable cancelCheck) {
        this.db = db;
        this.cancelCheck = cancelCheck;
    }

    /**
     * @param plan the query, planned by the session
     * @param open opens the query over a snapshot of the committed state
     * @return the command tag, {@code SELECT n}
     * @throws TributaryException 42P07 when the name exists (without IF NOT EXISTS), 42701 for
     *     two columns of one name
     */
    StatementResult run(
            UtilityStatement.CreateTableAs statement,
            StatementPlan.Query plan,
            Function<PreparedQuery, QueryCursor> open,
            Consumer<Session.Notice> notices)
            throws InterruptedException {
        List<ColumnDef> columns = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (ResultColumn c : plan.query().columns()) {
            if (!names.add(c.name())) {
                throw new TributaryException(
                        SqlState.DUPLICATE_COLUMN, "column \"" + c.name() + "\" specified more than once");
            }
            c.requireStorable(c.name());
            columns.add(new ColumnDef(c.name(), storedType(c.type()), false, false));
        }
        columns.add(new ColumnDef(TableDef.ROW_ID, DataType.BIGINT, true, true));
        int[] key = {columns.size() - 1};
        if (!db.ddl()
                .createTable(
                        statement.name(),
                        columns,
                        key,
                        statement.sql(),
                        statement.ifNotExists(),
                        null,
                        null,
                        List.of(),
                        io.tributary.catalog.RelationKind.TABLE)) {
            notices.accept(new Session.Notice(
                    "NOTICE",
                    SqlState.DUPLICATE_TABLE,
                    "relation \"" + statement.name() + "\" already exists, skipping"));
            return new StatementResult.Command("CREATE TABLE AS");
        }
        if (!statement.withData()) {
            return new StatementResult.Command("CREATE TABLE AS");
        }
        TableDef table = db.catalog().require(statement.name());
        try {
            long rows = fill(table, plan, open);
            return new StatementResult.Command("SELECT " + rows);
        } catch (RuntimeException | InterruptedException e) {
            db.ddl().drop(List.of(table.name()), RelationKind.TABLE, true, false, n -> {});
            throw e;
        }
    }

    private long fill(TableDef table, StatementPlan.Query plan, Function<PreparedQuery, QueryCursor> open)
            throws InterruptedException {
        List<ResultColumn> from = plan.query().columns();
        int width = table.columns().size();
        try (TableWriter writer = db.newTableWriter(table);
                QueryCursor cursor = open.apply(plan.query())) {
            Object[] in;
            while ((in = cursor.next()) != null) {
                if ((writer.count() & 1023) == 0) {
                    cancelCheck.run();
                }
                Object[] row = new Object[width];
                for (int i = 0; i < from.size(); i++) {
                    row[i] = Values.assign(
                            in[i], from.get(i).type(), table.columns().get(i).type());
                }
                writer.insert(row);
            }
            cancelCheck.run();
            long rows = writer.count();
            db.barriers().awaitCommitted(writer.apply());
            return rows;
        }
    }

    /** A query's unbounded character type is stored as text, as PostgreSQL stores it. */
    private static DataType storedType(DataType type) {
        return type.kind() == TypeKind.VARCHAR && type.precision() <= 0 ? DataType.TEXT : type;
    }
}

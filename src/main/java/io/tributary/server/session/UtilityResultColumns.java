package io.tributary.server.session;

import io.tributary.common.types.DataType;
import io.tributary.sql.UtilityStatement;
import java.util.List;

/** The result columns of the utility statements that return rows (SHOW, EXPLAIN, CANCEL JOBS, the functions). */
final class UtilityResultColumns {
    private UtilityResultColumns() {}

    /**
     * The columns {@code statement} returns, or null when it returns none; any thread (the
     * statement's description, asked before it runs, and the runner's rows agree on these).
     */
    static List<ColumnDesc> of(UtilityStatement statement) {
        if (statement instanceof UtilityStatement.ShowTables
                || statement instanceof UtilityStatement.ShowMaterializedViews
                || statement instanceof UtilityStatement.ShowSources) {
            return List.of(new ColumnDesc("Name", DataType.TEXT));
        }
        if (statement instanceof UtilityStatement.ExplainCreateMaterializedView) {
            return List.of(new ColumnDesc("QUERY PLAN", DataType.TEXT));
        }
        if (statement instanceof UtilityStatement.ShowJobs) {
            return List.of(
                    new ColumnDesc("Id", DataType.BIGINT),
                    new ColumnDesc("Statement", DataType.TEXT),
                    new ColumnDesc("Progress", DataType.TEXT));
        }
        if (statement instanceof UtilityStatement.CancelJobs) {
            return List.of(new ColumnDesc("Id", DataType.BIGINT));
        }
        if (statement instanceof UtilityStatement.ShowSinks) {
            return List.of(
                    new ColumnDesc("Name", DataType.TEXT),
                    new ColumnDesc("Relation", DataType.TEXT),
                    new ColumnDesc("Target", DataType.TEXT),
                    new ColumnDesc("Type", DataType.TEXT));
        }
        if (statement instanceof UtilityStatement.ShowColumns) {
            return List.of(
                    new ColumnDesc("Name", DataType.TEXT),
                    new ColumnDesc("Type", DataType.TEXT),
                    new ColumnDesc("Not Null", DataType.BOOLEAN),
                    new ColumnDesc("Primary Key", DataType.BOOLEAN));
        }
        if (statement instanceof UtilityStatement.ExplainQuery) {
            return List.of(new ColumnDesc("QUERY PLAN", DataType.TEXT));
        }
        if (statement instanceof UtilityStatement.SetConfig) {
            return List.of(new ColumnDesc("set_config", DataType.TEXT));
        }
        if (statement instanceof UtilityStatement.Sleep c) {
            return List.of(ColumnDesc.ofVoid(c.function()));
        }
        if (statement instanceof UtilityStatement.SignalBackend c) {
            return List.of(new ColumnDesc(c.function(), DataType.BOOLEAN));
        }
        if (statement instanceof UtilityStatement.ShowVariable s) {
            return s.name().equals("all")
                    ? List.of(
                            new ColumnDesc("Name", DataType.TEXT),
                            new ColumnDesc("Setting", DataType.TEXT),
                            new ColumnDesc("Description", DataType.TEXT))
                    : List.of(new ColumnDesc(SessionVariables.displayName(s.name()), DataType.TEXT));
        }
        return null;
    }
}

package io.tributary.server.session;

import io.tributary.common.types.DataType;

import java.util.List;

/** A parsed and planned statement, reusable across executions by the session that made it. */
public interface PreparedStatement {
    String sql();

    /** The types of {@code $1..$n}; unknown ones are reported as TEXT. */
    List<DataType> paramTypes();

    /** The columns of the rows the statement returns, or null if it returns no rows. */
    List<ColumnDesc> resultColumns();
}

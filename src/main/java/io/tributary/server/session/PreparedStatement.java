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

    /**
     * Releases the plan once the client no longer needs it (Close, a replaced unnamed statement,
     * the end of a simple query). Cursors already opened from it stay valid until they close.
     * Idempotent; session thread only.
     */
    void close();
}

package io.tributary.sql;

import io.tributary.common.types.DataType;
import java.util.List;

/**
 * A planned query, executable many times with different parameters by the session that prepared
 * it, on that session's thread.
 */
public interface PreparedQuery extends AutoCloseable {
    List<ResultColumn> columns();

    /** Types of {@code $1..$n} as inferred from the query. */
    List<DataType> paramTypes();

    /**
     * Starts executing with canonical parameter values (a String for a parameter the client sent
     * untyped; it is parsed as the inferred type). Reads the {@link ReadContext}'s snapshot.
     */
    QueryCursor open(List<Object> params);

    @Override
    void close();
}

package io.tributary.sql.calcite;

import io.tributary.sql.PreparedQuery;
import org.apache.calcite.sql.SqlNode;

/**
 * What planning an INSERT, UPDATE or DELETE asks of the session's {@link CalciteFrontend}: the
 * queries that compute its rows, its defaults, its ON CONFLICT and RETURNING values. Called on the
 * session's thread while it plans the statement.
 */
interface DmlQueries {
    /**
     * Plans {@code select}, a query the planner wrote (over the table's written rows, or a row of
     * DEFAULT expressions), as the session plans a client's query.
     */
    PreparedQuery plan(String select);

    /**
     * Whether {@code select}, a query the planner wrote, calls a function whose value may differ
     * from row to row ({@link PerRowCalls}); told from its parsed tree, without planning it.
     */
    boolean variesPerRow(String select);

    /**
     * Prepares {@code text}, the query the planner wrote for the client's statement {@code original}
     * whose parameters, {@code parameterCount} of them, appear in {@code order}; errors point into
     * {@code original}.
     */
    PreparedQuery prepare(String text, int[] order, int parameterCount, String original);

    /**
     * Prepares {@code source}, the query of the client's statement {@code original} as parsed from
     * {@code parsed} (its nodes keep their positions there), written out; errors point at its
     * nodes in {@code original}.
     */
    PreparedQuery prepare(SqlNode source, int[] order, int parameterCount, String parsed, String original);
}

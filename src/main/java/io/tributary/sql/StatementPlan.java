package io.tributary.sql;

import io.tributary.catalog.TableDef;
import io.tributary.common.types.DataType;
import java.util.List;

/** What the SQL front end made of one statement. */
public sealed interface StatementPlan {

    /** Parameter types of {@code $1..$n}. */
    List<DataType> paramTypes();

    /** Releases the compiled queries the plan holds; session thread only. */
    default void close() {
        if (this instanceof Query q) {
            q.query().close();
        } else if (this instanceof Update u) {
            u.query().close();
            closeAll(u.returning());
        } else if (this instanceof Delete d) {
            d.query().close();
            closeAll(d.returning());
        } else if (this instanceof Insert i) {
            closeAll(i.source(), i.defaults(), i.returning());
            if (i.conflict() != null) {
                closeAll(i.conflict().update());
            }
        }
    }

    private static void closeAll(Object... queries) {
        for (Object q : queries) {
            if (q instanceof PreparedQuery p) {
                p.close();
            } else if (q instanceof Returning r) {
                r.query().close();
            }
        }
    }

    /** A utility statement (DDL, SET, SHOW, COPY ...). */
    record Utility(UtilityStatement statement) implements StatementPlan {
        @Override
        public List<DataType> paramTypes() {
            return List.of();
        }
    }

    /** A query returning rows. */
    record Query(PreparedQuery query) implements StatementPlan {
        @Override
        public List<DataType> paramTypes() {
            return query.paramTypes();
        }
    }

    /**
     * INSERT. Either {@code literalRows} (VALUES of constants, evaluated without planning; an
     * element may be a {@link ParamRef} or {@link #DEFAULT}) or {@code source} (a query whose
     * columns feed {@code targetColumns} in order) is set.
     *
     * @param defaults null, or a query of the values of the {@code DEFAULT} expressions of {@code
     *     defaultColumns}: one row, evaluated once per statement ({@code now()} is the transaction's),
     *     or, when {@code defaultsPerRow}, {@code n} rows for its one parameter {@code n}
     * @param defaultsPerRow whether the expressions call a function whose value may differ from
     *     row to row ({@code random()}, {@code gen_random_uuid()}), so each inserted row takes a row
     *     of its own, as PostgreSQL evaluates them per row
     * @param conflict the ON CONFLICT action, or null
     * @param returning the RETURNING list, or null
     */
    record Insert(
            TableDef table,
            int[] targetColumns,
            List<Object[]> literalRows,
            PreparedQuery source,
            List<DataType> paramTypes,
            PreparedQuery defaults,
            boolean defaultsPerRow,
            int[] defaultColumns,
            Conflict conflict,
            Returning returning)
            implements StatementPlan {}

    /** The cell {@code DEFAULT} in literal INSERT rows. */
    Object DEFAULT = new Object() {
        @Override
        public String toString() {
            return "DEFAULT";
        }
    };

    /**
     * {@code ON CONFLICT [target] DO NOTHING | DO UPDATE}. {@code update} takes as parameters
     * the existing row's visible columns followed by the proposed row's ({@code EXCLUDED}), and
     * returns the new values of {@code setColumns}, then, when {@code hasWhere}, the condition.
     *
     * @param keyArbiter whether the primary key is an arbiter (the target names it, or there is none)
     * @param indexArbiters the UNIQUE constraints and unique indexes that are arbiters (the one the
     *     target names, or all of them without a target)
     */
    record Conflict(
            boolean doNothing,
            int[] setColumns,
            PreparedQuery update,
            boolean hasWhere,
            boolean keyArbiter,
            List<io.tributary.catalog.IndexDef> indexArbiters) {}

    /**
     * A RETURNING list: {@code query} takes a written row's visible columns ({@code
     * visibleColumns} of the table, in order), then the {@code joinedColumns} values of the rows an
     * UPDATE ... FROM or DELETE ... USING joined it with, as parameters and returns the list's
     * values.
     */
    record Returning(PreparedQuery query, int[] visibleColumns, int joinedColumns) {
        public Returning(PreparedQuery query, int[] visibleColumns) {
            this(query, visibleColumns, 0);
        }
    }

    /**
     * UPDATE: {@code query} returns each matching row in full (hidden columns too) followed by the
     * new values of {@code targetColumns}, then, when {@code returning} has {@code joinedColumns},
     * the joined rows' values. With {@code joined} (UPDATE ... FROM) a row may come several times,
     * once per row it joins; the first is the one applied.
     */
    record Update(TableDef table, int[] targetColumns, PreparedQuery query, Returning returning, boolean joined)
            implements StatementPlan {
        public Update(TableDef table, int[] targetColumns, PreparedQuery query, Returning returning) {
            this(table, targetColumns, query, returning, false);
        }

        @Override
        public List<DataType> paramTypes() {
            return query.paramTypes();
        }
    }

    /**
     * DELETE: {@code query} returns each row to delete in full, then, when {@code returning} has
     * {@code joinedColumns}, the joined rows' values. With {@code joined} (DELETE ... USING) a row
     * may come several times; the first is the one deleted and returned.
     */
    record Delete(TableDef table, PreparedQuery query, Returning returning, boolean joined) implements StatementPlan {
        public Delete(TableDef table, PreparedQuery query, Returning returning) {
            this(table, query, returning, false);
        }

        @Override
        public List<DataType> paramTypes() {
            return query.paramTypes();
        }
    }

    /** A reference to parameter {@code $index} (1-based) in literal INSERT rows. */
    record ParamRef(int index) {}
}

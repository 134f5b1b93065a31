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
        } else if (this instanceof Delete d) {
            d.query().close();
        } else if (this instanceof Insert i && i.source() != null) {
            i.source().close();
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
     * element may be a {@link ParamRef}) or {@code source} (a query whose columns feed
     * {@code targetColumns} in order) is set.
     */
    record Insert(
            TableDef table,
            int[] targetColumns,
            List<Object[]> literalRows,
            PreparedQuery source,
            List<DataType> paramTypes)
            implements StatementPlan {}

    /**
     * UPDATE: {@code query} returns each matching row in full (hidden columns too) followed by the
     * new values of {@code targetColumns}.
     */
    record Update(TableDef table, int[] targetColumns, PreparedQuery query) implements StatementPlan {
        @Override
        public List<DataType> paramTypes() {
            return query.paramTypes();
        }
    }

    /** DELETE: {@code query} returns each row to delete in full. */
    record Delete(TableDef table, PreparedQuery query) implements StatementPlan {
        @Override
        public List<DataType> paramTypes() {
            return query.paramTypes();
        }
    }

    /** A reference to parameter {@code $index} (1-based) in literal INSERT rows. */
    record ParamRef(int index) {}
}

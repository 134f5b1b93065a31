package io.tributary.server.pgwire;

import io.tributary.common.types.DataType;
import io.tributary.common.types.TypeKind;
import io.tributary.server.session.ColumnDesc;
import io.tributary.server.session.PreparedStatement;
import java.util.List;

/**
 * A statement created by Parse.
 *
 * @param prepared the engine's statement, or null for an empty query string (which PostgreSQL
 *     accepts and answers with EmptyQueryResponse on Execute)
 */
record PgStatement(PreparedStatement prepared) {

    List<DataType> paramTypes() {
        return prepared == null ? List.of() : prepared.paramTypes();
    }

    /** Null when the statement returns no rows. */
    List<ColumnDesc> resultColumns() {
        return prepared == null ? null : prepared.resultColumns();
    }

    /** Releases the engine's plan; see {@link PreparedStatement#close()}. */
    void close() {
        if (prepared != null) {
            prepared.close();
        }
    }

    /** ParameterDescription OIDs; a parameter of unknown type is sent as text, which is how it is read. */
    int[] parameterOids() {
        List<DataType> types = paramTypes();
        int[] oids = new int[types.size()];
        for (int i = 0; i < oids.length; i++) {
            DataType t = types.get(i);
            oids[i] = t == null ? TypeKind.TEXT.oid() : t.oid();
        }
        return oids;
    }
}

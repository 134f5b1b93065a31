package io.tributary.connector.postgres;

import io.tributary.common.SqlState;
import io.tributary.connector.ConnectorException;
import io.tributary.connector.Source;
import io.tributary.connector.SourceConnector;
import io.tributary.connector.SourceContext;
import java.util.List;

/**
 * {@code postgres-cdc}: a table that mirrors a PostgreSQL table through logical replication
 * (pgoutput, read with pgjdbc's replication API): an initial consistent snapshot, then the stream
 * of inserts, updates and deletes. The first open creates a publication and a replication slot
 * upstream (the source's identity); later opens only check the options and reuse them, so a
 * server start does not wait for the upstream. Stateless and thread-safe.
 */
public final class PostgresCdcConnector implements SourceConnector {
    private static final int DEFAULT_SNAPSHOT_CHUNK_ROWS = 1024;

    private final int snapshotChunkRows;

    public PostgresCdcConnector() {
        this(DEFAULT_SNAPSHOT_CHUNK_ROWS);
    }

    /** @param snapshotChunkRows the most rows one snapshot query reads (tests make chunks small) */
    PostgresCdcConnector(int snapshotChunkRows) {
        this.snapshotChunkRows = snapshotChunkRows;
    }

    @Override
    public String name() {
        return "postgres-cdc";
    }

    @Override
    public List<String> options() {
        return CdcOptions.NAMES;
    }

    @Override
    public Source open(SourceContext context) {
        CdcOptions options = CdcOptions.parse(context.options());
        if (context.format() != null) {
            throw new ConnectorException(
                    SqlState.SYNTAX_ERROR, "connector postgres-cdc takes no FORMAT ... ENCODE clause");
        }
        if (context.primaryKey().length == 0) {
            throw new ConnectorException(
                    SqlState.INVALID_TABLE_DEFINITION,
                    "postgres-cdc needs a primary key: declare" + " table " + context.tableName()
                            + " with the upstream table's PRIMARY KEY");
        }
        if (context.identity() != null) {
            return new PostgresCdcSource(
                    options, context, CdcIdentity.decode(context.identity()), snapshotChunkRows, null, null);
        }
        CdcSetup.Created created = CdcSetup.create(options, context);
        return new PostgresCdcSource(
                options, context, created.identity(), snapshotChunkRows, created.upstream(), created.snapshot());
    }
}

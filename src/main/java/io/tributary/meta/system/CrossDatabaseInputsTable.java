package io.tributary.meta.system;

import io.tributary.catalog.ColumnDef;
import io.tributary.common.types.DataType;
import io.tributary.meta.ddl.CrossDatabaseLag;
import io.tributary.meta.ddl.DdlController;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code tributary_catalog.cross_database_inputs}: per materialized view of this database and table
 * of another database it reads, how far the view has read that table's change log (the upstream
 * epoch, as committed in this database) and how far behind the upstream's last commit that is, in
 * epochs that changed the table and in milliseconds. Computed at each query.
 */
final class CrossDatabaseInputsTable extends EngineStateTable {
    private final DdlController ddl;

    CrossDatabaseInputsTable(DdlController ddl) {
        super(
                "cross_database_inputs",
                new ColumnDef("view_name", DataType.TEXT, true, false),
                new ColumnDef("upstream_database", DataType.TEXT, true, false),
                new ColumnDef("upstream_table", DataType.TEXT, true, false),
                new ColumnDef("consumed_epoch", DataType.BIGINT, true, false),
                new ColumnDef("upstream_epoch", DataType.BIGINT, true, false),
                new ColumnDef("lag_epochs", DataType.BIGINT, true, false),
                new ColumnDef("lag_ms", DataType.BIGINT, true, false));
        this.ddl = ddl;
    }

    @Override
    public List<Object[]> rows() {
        List<Object[]> rows = new ArrayList<>();
        for (CrossDatabaseLag l : ddl.crossDatabaseLags()) {
            rows.add(new Object[] {
                l.view(), l.database(), l.relation(), l.consumedEpoch(), l.upstreamEpoch(), l.lagEpochs(), l.lagMillis()
            });
        }
        return rows;
    }
}

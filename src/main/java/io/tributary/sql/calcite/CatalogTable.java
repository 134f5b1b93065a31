package io.tributary.sql.calcite;

import io.tributary.batch.KeyRange;
import io.tributary.batch.TableScan;
import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.TableDef;
import io.tributary.sql.ReadContext;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.schema.FilterableTable;
import org.apache.calcite.schema.Statistic;
import org.apache.calcite.schema.Statistics;
import org.apache.calcite.schema.TemporalTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * A catalog table as Calcite sees it: a scan over the statement's snapshot (a source, whose rows are
 * not stored, refuses the scan; views plan over it without scanning). The "full" variant
 * includes hidden columns and is used only by the queries UPDATE and DELETE are planned into.
 *
 * <p>Temporal to Calcite, so a view may read it {@code FOR SYSTEM_TIME AS OF PROCTIME()}: its
 * versions are the committed epochs, not system-time columns, so it names none ({@link
 * TemporalJoins} plans the lookup; a query reads the current version, {@link ProcTimeSnapshots}).
 */
final class CatalogTable extends AbstractTable implements FilterableTable, TemporalTable {
    private final TableDef table;
    private final ReadContext context;
    private final int[] columns;

    /** Why the relation cannot be read yet (a view being created), or empty. */
    private final java.util.function.Supplier<java.util.Optional<io.tributary.catalog.Catalog.Unreadable>> notReadable;

    CatalogTable(
            TableDef table,
            ReadContext context,
            boolean full,
            java.util.function.Supplier<java.util.Optional<io.tributary.catalog.Catalog.Unreadable>> notReadable) {
        this.notReadable = notReadable;
        this.table = table;
        this.context = context;
        List<ColumnDef> defs = table.columns();
        this.columns = java.util.stream.IntStream.range(0, defs.size())
                .filter(i -> full || !defs.get(i).hidden())
                .toArray();
    }

    /** None: versions are epochs (see the class comment); Calcite's validator does not ask. */
    @Override
    public String getSysStartFieldName() {
        return "";
    }

    /** None, as {@link #getSysStartFieldName}. */
    @Override
    public String getSysEndFieldName() {
        return "";
    }

    /** The catalog relation this table shows. */
    TableDef table() {
        return table;
    }

    /** For each Calcite field, the index of the catalog column it shows. */
    int[] columnIndexes() {
        return columns.clone();
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
        RelDataTypeFactory.Builder b = typeFactory.builder();
        for (int i : columns) {
            ColumnDef c = table.columns().get(i);
            b.add(c.name(), TypeMapping.toRelType(typeFactory, c.type(), !c.notNull()));
        }
        return b.build();
    }

    @Override
    public Statistic getStatistic() {
        List<ImmutableBitSet> keys = new ArrayList<>();
        if (!table.hasRowId()) {
            keys.add(ImmutableBitSet.of(table.primaryKey()));
        }
        return Statistics.of(1000d, keys);
    }

    /**
     * A point read when the filters pin the primary key, a range read when they bound its first
     * column, else a full scan; Calcite still applies the filters, except the one the key read
     * answers exactly ({@link PrimaryKeyFilter#removeAnswered}).
     */
    @Override
    public Enumerable<Object[]> scan(DataContext root, List<RexNode> filters) {
        if (table.isSource()) {
            // as RisingWave refuses a batch query of a source it cannot read back: nothing is stored
            throw new io.tributary.common.TributaryException(
                    io.tributary.common.SqlState.FEATURE_NOT_SUPPORTED,
                    "cannot query source \"" + table.localName()
                            + "\": its events are not stored, only passed on to the materialized views over it",
                    0,
                    null,
                    "Create a materialized view over the source and query the view.",
                    null);
        }
        notReadable.get().ifPresent(why -> {
            throw new io.tributary.common.TributaryException(
                    io.tributary.common.SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE,
                    why.reason(),
                    0,
                    null,
                    why.hint(),
                    null);
        });
        Object[] key = PrimaryKeyFilter.pinnedKey(table, columns, filters, root);
        KeyRange range = key == null ? PrimaryKeyFilter.firstColumnRange(table, columns, filters, root) : null;
        if (key != null || range != null) {
            PrimaryKeyFilter.removeAnswered(table, columns, filters, root);
        }
        return new AbstractEnumerable<>() {
            @Override
            public Enumerator<Object[]> enumerator() {
                if (key != null) {
                    Object[] row = context.snapshot().lookup(table, key);
                    return Linq4j.enumerator(row == null ? List.<Object[]>of() : List.<Object[]>of(toCalcite(row)));
                }
                return new ScanEnumerator(
                        range != null
                                ? context.snapshot().scan(table, range)
                                : context.snapshot().scan(table));
            }
        };
    }

    private Object[] toCalcite(Object[] row) {
        Object[] out = new Object[columns.length];
        for (int i = 0; i < columns.length; i++) {
            int c = columns[i];
            out[i] = TypeMapping.toCalcite(table.columns().get(c).type(), row[c]);
        }
        return out;
    }

    private final class ScanEnumerator implements Enumerator<Object[]> {
        private final TableScan scan;
        private Object[] current;
        private int sinceCancelCheck;

        ScanEnumerator(TableScan scan) {
            this.scan = scan;
        }

        @Override
        public Object[] current() {
            return current;
        }

        @Override
        public boolean moveNext() {
            if (++sinceCancelCheck >= 1024) {
                sinceCancelCheck = 0;
                context.control().check();
            }
            if (!scan.hasNext()) {
                return false;
            }
            current = toCalcite(scan.next());
            return true;
        }

        @Override
        public void reset() {
            throw new UnsupportedOperationException("table scans cannot be reset");
        }

        @Override
        public void close() {
            scan.close();
        }
    }
}

package io.tributary.meta.ddl;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.SequenceDef;
import io.tributary.catalog.SequenceOptions;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import io.tributary.common.types.TypeKind;
import io.tributary.meta.epoch.BarrierManager;
import io.tributary.meta.epoch.EpochChange;
import io.tributary.storage.WriteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Sequences as pg_dump writes them: {@code CREATE SEQUENCE}, {@code ALTER SEQUENCE ... OWNED BY},
 * {@code DROP SEQUENCE}, and the statements that give a column its sequence ({@code ALTER COLUMN
 * ... SET DEFAULT nextval('t_c_seq'::regclass)}, {@code ALTER COLUMN ... ADD GENERATED ... AS
 * IDENTITY}). A column's sequence is always its own, {@code <table>_<column>_seq}: giving a
 * column the sequence of that name turns it into a SERIAL column whose sequence carries on from
 * the created one's position, and the created one's record goes, in one epoch. Each statement
 * commits in one epoch and returns once durable. Called on session threads; thread-safe.
 */
public final class SequenceDdl {
    private final CatalogService catalogService;
    private final BarrierManager barriers;
    private final SequenceMove sequences;

    public SequenceDdl(CatalogService catalogService, BarrierManager barriers, SequenceMove sequences) {
        this.catalogService = catalogService;
        this.barriers = barriers;
        this.sequences = sequences;
    }

    /**
     * {@code CREATE SEQUENCE}; {@code name} is the catalog key, {@code type} smallint, integer or
     * bigint, {@code options} how it counts (its position starts out unset: {@code options.start()}
     * is handed out first).
     *
     * @return false when the name was taken and {@code ifNotExists} set
     * @throws TributaryException 42P07 when a relation has the name
     */
    public boolean create(String name, String type, SequenceOptions options, boolean ifNotExists)
            throws InterruptedException {
        if (isColumnSequence(name)) {
            if (ifNotExists) {
                return false;
            }
            throw new TributaryException(SqlState.DUPLICATE_TABLE, "relation \"" + name + "\" already exists");
        }
        if (!catalogService.reserveName(name, ifNotExists)) {
            return false;
        }
        try {
            SequenceDef sequence = new SequenceDef(
                    catalogService.allocateIds(1),
                    name,
                    catalogService.catalog().schemaOfKey(name),
                    type,
                    null,
                    options);
            barriers.awaitCommitted(barriers.stage(new Change(List.of(sequence), List.of(), null)));
        } finally {
            catalogService.releaseName(name);
        }
        return true;
    }

    /**
     * {@code ALTER SEQUENCE name OWNED BY table.column} ({@code table} null: {@code OWNED BY NONE}).
     *
     * @throws TributaryException 42P01 unknown sequence or table, 42703 unknown column, 55000 for
     *     a table in another schema
     */
    public void ownedBy(String name, String table, String column) throws InterruptedException {
        SequenceDef sequence = require(name);
        String owner = null;
        if (table != null) {
            TableDef t = catalogService.catalog().require(table);
            if (t.columnIndex(column) < 0
                    || t.columns().get(t.columnIndex(column)).hidden()) {
                throw new TributaryException(
                        SqlState.UNDEFINED_COLUMN,
                        "column \"" + column + "\" of relation \"" + t.localName() + "\" does not exist");
            }
            if (!t.schema().equals(sequence.schema())) {
                throw new TributaryException(
                        SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE,
                        "sequence must be in same schema as table it is linked to");
            }
            owner = t.name() + "." + column;
        }
        barriers.awaitCommitted(barriers.stage(new Change(List.of(sequence.ownedBy(owner)), List.of(), null)));
    }

    /**
     * {@code ALTER SEQUENCE name} with new counting options (its position is the caller's to set).
     *
     * @return the sequence as it was
     * @throws TributaryException 42P01 unknown sequence
     */
    public SequenceDef alter(String name, SequenceOptions options) throws InterruptedException {
        SequenceDef sequence = require(name);
        barriers.awaitCommitted(barriers.stage(new Change(List.of(sequence.withOptions(options)), List.of(), null)));
        return sequence;
    }

    /**
     * {@code DROP SEQUENCE}.
     *
     * @return the names that did not exist (skipped, with {@code ifExists})
     * @throws TributaryException 42P01 for a missing one without {@code ifExists}; 2BP01 for one a
     *     column default draws from
     */
    public List<String> drop(List<String> names, boolean ifExists) throws InterruptedException {
        List<String> missing = new ArrayList<>();
        List<SequenceDef> dropped = new ArrayList<>();
        for (String name : names) {
            var sequence = catalogService.catalog().sequence(name);
            if (sequence.isPresent()) {
                SequenceDefaults.checkUnused(catalogService.catalog(), sequence.get());
                dropped.add(sequence.get());
            } else if (ifExists) {
                missing.add(name);
            } else {
                throw new TributaryException(SqlState.UNDEFINED_TABLE, "sequence \"" + name + "\" does not exist");
            }
        }
        if (!dropped.isEmpty()) {
            barriers.awaitCommitted(barriers.stage(new Change(List.of(), dropped, null)));
        }
        return missing;
    }

    /**
     * {@code ALTER TABLE table ALTER COLUMN column SET DEFAULT nextval('sequence'::regclass)}:
     * the column becomes SERIAL, its sequence carrying on from {@code sequence}'s position.
     *
     * @throws TributaryException 42P01 unknown table or sequence, 42703 unknown column, 0A000 when
     *     {@code sequence} is not named as the column's own ({@code <table>_<column>_seq}) or the
     *     column already draws from a sequence
     */
    public void setSequenceDefault(String table, String column, String sequenceKey) throws InterruptedException {
        TableDef t = catalogService.catalog().require(table);
        int c = column(t, column);
        String own = ownSequence(t, c);
        if (!sequenceKey.equals(own)) {
            throw TributaryException.notSupported("a column DEFAULT drawing from sequence \"" + sequenceKey
                    + "\", which is not the column's own \"" + own + "\",");
        }
        SequenceDef sequence = require(sequenceKey);
        SequenceOptions counting = sequence.counting();
        if (counting.start() != 1 || counting.increment() != 1 || counting.min() != 1 || counting.cycle()) {
            // the column's own sequence counts 1, 2, ... to the bound of bigint
            throw TributaryException.notSupported("a column DEFAULT drawing from sequence \"" + sequenceKey
                    + "\" with START, INCREMENT, MINVALUE or CYCLE options");
        }
        checkIntegral(t, c, "a DEFAULT nextval(...) on a column of type");
        if (t.columns().get(c).hasDefault()) {
            throw TributaryException.notSupported("replacing the DEFAULT of column \"" + column + "\"");
        }
        TableDef altered = withColumn(t, c, ColumnDef.Identity.SERIAL);
        barriers.awaitCommitted(
                barriers.stage(new Change(List.of(), List.of(sequence), new Adopt(t, altered, c, sequence))));
    }

    /**
     * {@code ALTER TABLE table ALTER COLUMN column ADD GENERATED {ALWAYS | BY DEFAULT} AS IDENTITY
     * [(SEQUENCE NAME s ...)]}; {@code sequenceKey} null when not named.
     *
     * @throws TributaryException 55000 for a column that may hold NULL or already is an identity
     *     column; 22023 for a type other than smallint, integer, bigint; 0A000 for a sequence name
     *     other than the column's own
     */
    public void addIdentity(String table, String column, boolean always, String sequenceKey)
            throws InterruptedException {
        TableDef t = catalogService.catalog().require(table);
        int c = column(t, column);
        ColumnDef d = t.columns().get(c);
        if (sequenceKey != null && !sequenceKey.equals(ownSequence(t, c))) {
            throw TributaryException.notSupported("an identity sequence named \"" + sequenceKey
                    + "\", not the column's own \"" + ownSequence(t, c) + "\",");
        }
        if (!d.notNull()) {
            throw new TributaryException(
                    SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE,
                    "column \"" + column + "\" of relation \"" + t.localName()
                            + "\" must be declared NOT NULL before identity can be added");
        }
        if (d.identity() != null && d.identity() != ColumnDef.Identity.SERIAL) {
            throw new TributaryException(
                    SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE,
                    "column \"" + column + "\" of relation \"" + t.localName() + "\" is already an identity column");
        }
        if (d.hasDefault()) {
            throw new TributaryException(
                    SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE,
                    "column \"" + column + "\" of relation \"" + t.localName() + "\" already has a default value");
        }
        if (!integral(d.type())) {
            throw new TributaryException(
                    SqlState.INVALID_PARAMETER_VALUE, "identity column type must be smallint, integer, or bigint");
        }
        TableDef altered = withColumn(t, c, always ? ColumnDef.Identity.ALWAYS : ColumnDef.Identity.BY_DEFAULT);
        barriers.awaitCommitted(barriers.stage(new Change(List.of(), List.of(), new Adopt(t, altered, c, null))));
    }

    /** Whether {@code key} names the sequence of a SERIAL or identity column. */
    private boolean isColumnSequence(String key) {
        for (TableDef t : catalogService.catalog().tables()) {
            for (int c = 0; c < t.columns().size(); c++) {
                if (t.columns().get(c).identity() != null && ownSequence(t, c).equals(key)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The catalog key of the sequence PostgreSQL and Tributary give column {@code c}. */
    private static String ownSequence(TableDef t, int c) {
        return Catalog.key(t.schema(), t.localName() + "_" + t.columns().get(c).name() + "_seq");
    }

    private static int column(TableDef t, String column) {
        int c = t.columnIndex(column);
        if (c < 0 || t.columns().get(c).hidden()) {
            throw new TributaryException(
                    SqlState.UNDEFINED_COLUMN,
                    "column \"" + column + "\" of relation \"" + t.localName() + "\" does not exist");
        }
        return c;
    }

    private static boolean integral(DataType type) {
        return type.kind() == TypeKind.SMALLINT || type.kind() == TypeKind.INTEGER || type.kind() == TypeKind.BIGINT;
    }

    private static void checkIntegral(TableDef t, int c, String what) {
        if (!integral(t.columns().get(c).type())) {
            throw TributaryException.notSupported(
                    what + " " + t.columns().get(c).type().kind().pgName());
        }
    }

    private static TableDef withColumn(TableDef t, int c, ColumnDef.Identity identity) {
        List<ColumnDef> columns = new ArrayList<>(t.columns());
        ColumnDef d = columns.get(c);
        columns.set(c, new ColumnDef(d.name(), d.type(), d.notNull(), d.hidden(), null, identity, null, d.comment()));
        return new TableDef(
                t.id(),
                t.name(),
                List.copyOf(columns),
                t.primaryKey(),
                t.definition(),
                t.kind(),
                t.query(),
                t.dependsOn(),
                t.stateTableIds(),
                t.parallelism(),
                t.source(),
                t.watermark(),
                t.schema(),
                t.checks(),
                t.indexes(),
                t.foreignKeys(),
                t.comment());
    }

    private SequenceDef require(String name) {
        return catalogService.catalog().sequence(name).orElseThrow(() -> undefined(name));
    }

    private static TributaryException undefined(String name) {
        return new TributaryException(SqlState.UNDEFINED_TABLE, "relation \"" + name + "\" does not exist");
    }

    /**
     * A column taking its own sequence: the table's new record and, when it takes over a created
     * sequence, that sequence's position as the column's.
     */
    private record Adopt(TableDef before, TableDef after, int column, SequenceDef from) {}

    /** Sequence records written and removed, and a column's new sequence, in one epoch. */
    private final class Change implements EpochChange {
        private final List<SequenceDef> written;
        private final List<SequenceDef> removed;
        private final Adopt adopt;

        Change(List<SequenceDef> written, List<SequenceDef> removed, Adopt adopt) {
            this.written = written;
            this.removed = removed;
            this.adopt = adopt;
        }

        @Override
        public void stage(WriteBuffer buffer) {
            Catalog catalog = catalogService.catalog();
            for (SequenceDef q : removed) {
                if (catalog.sequence(q.name()).map(now -> now.id() != q.id()).orElse(true)) {
                    throw undefined(q.localName());
                }
                CatalogService.stageSequenceRemoval(buffer, q.name());
            }
            written.forEach(q -> catalogService.stageSequence(buffer, q));
            if (adopt != null) {
                if (catalog.table(adopt.before().name())
                        .map(t -> t != adopt.before())
                        .orElse(true)) {
                    throw Catalog.undefinedTable(adopt.before().name());
                }
                if (adopt.from() != null) {
                    sequences
                            .moved(adopt.from().id(), 0, adopt.after().id(), adopt.column())
                            .stage(buffer);
                }
                catalogService.stageRecord(buffer, adopt.after());
                catalog.put(adopt.after());
            }
            removed.forEach(q -> catalog.removeSequence(q.name()));
        }

        @Override
        public void committed() {
            written.forEach(q -> catalogService.catalog().putSequence(q));
        }

        @Override
        public void failed() {
            Catalog catalog = catalogService.catalog();
            removed.forEach(catalog::putSequence);
            if (adopt != null
                    && catalog.table(adopt.after().name())
                            .map(t -> t == adopt.after())
                            .orElse(false)) {
                catalog.put(adopt.before());
            }
        }
    }
}

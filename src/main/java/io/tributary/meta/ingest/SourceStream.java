package io.tributary.meta.ingest;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.TableDef;
import io.tributary.meta.epoch.EpochChange;
import io.tributary.storage.WriteBuffer;
import io.tributary.stream.Chunk;
import io.tributary.stream.Op;
import java.util.Arrays;

/**
 * Where a source relation's batches go (CREATE SOURCE) in place of a {@link
 * io.tributary.meta.write.TableWriter}: the rows are not stored, encoded or logged by the source; each
 * batch is emitted, as inserts, to the views reading the relation, in the epoch that also commits the
 * split's position after the batch. So a view's state and the positions commit together, and after a
 * crash the split resumes exactly after the last event the views' committed state holds. A view being
 * created gets the batches through the change-log recorder the backfill attached to the relation's
 * feed, as it does for a table; with no view reading it, a batch commits only its position.
 *
 * <p>Made once per split; {@link #stage} is called by the split's thread only.
 */
final class SourceStream {
    private final SourceEngine engine;
    private final TableDef source;

    /** The source's {@code AS PROCTIME()} columns, filled with the emitting epoch's time. */
    private final int[] proctimeColumns;

    SourceStream(SourceEngine engine, TableDef source) {
        this.engine = engine;
        this.source = source;
        this.proctimeColumns = java.util.stream.IntStream.range(
                        0, source.columns().size())
                .filter(i -> source.columns().get(i).proctime())
                .toArray();
    }

    /**
     * Stages {@code rows} (full width, the hidden row id filled in, owned by the stream from now on)
     * and {@code position} in the open epoch, {@code position} first: if it refuses, nothing is emitted.
     *
     * @return the ticket of that epoch
     * @throws io.tributary.common.TributaryException 42P01 when the source was dropped meanwhile
     */
    long stage(Object[][] rows, EpochChange position) {
        return engine.barriers().stage(new EmittedRows(rows, position));
    }

    /** One batch as a change of an epoch; its hooks are the position's. */
    private final class EmittedRows implements EpochChange {
        private final Object[][] rows;
        private final EpochChange position;

        EmittedRows(Object[][] rows, EpochChange position) {
            this.rows = rows;
            this.position = position;
        }

        /** Under the barrier lock. */
        @Override
        public void stage(WriteBuffer buffer) {
            Catalog catalog = engine.catalog();
            if (catalog.table(source.name()).map(t -> t.id() != source.id()).orElse(true)) {
                throw Catalog.undefinedTable(source.name());
            }
            position.stage(buffer);
            if (!engine.streams().hasSubscribers(source.id())) {
                return;
            }
            if (proctimeColumns.length > 0) {
                // the rows are not stored: the time is the epoch's that emits them, under the lock
                Long micros = engine.barriers().openEpochMillis() * 1000;
                for (Object[] row : rows) {
                    for (int c : proctimeColumns) {
                        row[c] = micros;
                    }
                }
            }
            for (int from = 0; from < rows.length; from += Chunk.TARGET_SIZE) {
                int to = Math.min(rows.length, from + Chunk.TARGET_SIZE);
                Op[] ops = new Op[to - from];
                Arrays.fill(ops, Op.INSERT);
                Object[][] part = from == 0 && to == rows.length ? rows : Arrays.copyOfRange(rows, from, to);
                engine.streams().emit(source.id(), new Chunk(ops, part));
            }
        }

        @Override
        public void committed() {
            position.committed();
        }

        @Override
        public void failed() {
            position.failed();
        }
    }
}

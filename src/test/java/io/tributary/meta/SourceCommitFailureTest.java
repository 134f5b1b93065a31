package io.tributary.meta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.SourceDef;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.codec.RowCodec;
import io.tributary.common.types.DataType;
import io.tributary.connector.Connectors;
import io.tributary.connector.datagen.DatagenConnector;
import io.tributary.meta.ddl.CatalogService;
import io.tributary.meta.ddl.DdlController;
import io.tributary.meta.epoch.BarrierManager;
import io.tributary.meta.ingest.SourceEngine;
import io.tributary.meta.ingest.SourceManager;
import io.tributary.meta.write.RowIdGenerator;
import io.tributary.sql.calcite.CalciteViewPlanner;
import io.tributary.storage.Keyspace;
import io.tributary.storage.KvIterator;
import io.tributary.storage.ReadView;
import io.tributary.storage.StateStore;
import io.tributary.storage.TableKeys;
import io.tributary.storage.WriteBuffer;
import io.tributary.storage.rocksdb.RocksStateStore;
import io.tributary.stream.runtime.StreamRuntime;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An epoch holding a source's rows fails to commit while the source runs: the split reads again
 * from its last durable position, so the table (append-only, where a lost or doubled row shows)
 * still ends with every generated row exactly once.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SourceCommitFailureTest {
    private static final int ROWS = 6000;

    @TempDir
    Path dir;

    @Test
    void rowsOfAFailedEpochAreReadAgain() throws Exception {
        AtomicInteger failures = new AtomicInteger();
        AtomicInteger failNext = new AtomicInteger();
        try (StateStore rocks = RocksStateStore.open(dir.resolve("state"))) {
            StateStore flaky = new DelegatingStore(rocks) {
                @Override
                public void commit(long epoch, WriteBuffer buffer) {
                    if (failNext.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                        failures.incrementAndGet();
                        throw new TributaryException(SqlState.INTERNAL_ERROR, "disk on fire");
                    }
                    super.commit(epoch, buffer);
                }
            };
            BarrierManager barriers = new BarrierManager(flaky, 10);
            CatalogService catalogService = CatalogService.recover(flaky);
            StreamRuntime streams = new StreamRuntime(flaky, 10);
            barriers.start();
            SourceManager sources = new SourceManager(
                    new SourceEngine(
                            catalogService.catalog(),
                            barriers,
                            flaky,
                            streams,
                            new RowIdGenerator(0),
                            new io.tributary.meta.write.Watermarks(flaky)),
                    new Connectors(List.of(new DatagenConnector())));
            DdlController ddl = new DdlController(
                    catalogService,
                    barriers,
                    flaky,
                    streams,
                    new CalciteViewPlanner(catalogService.catalog()),
                    sources,
                    new io.tributary.meta.sink.SinkManager(
                            flaky,
                            streams,
                            barriers,
                            catalogService.catalog(),
                            io.tributary.meta.jobs.JobPlacement.localOnly()),
                    io.tributary.meta.jobs.JobPlacement.localOnly());
            try {
                ddl.createTable(
                        "g",
                        List.of(
                                new ColumnDef("id", DataType.BIGINT, false, false),
                                new ColumnDef(TableDef.ROW_ID, DataType.BIGINT, true, true)),
                        new int[] {1},
                        "g",
                        false,
                        new SourceDef(
                                "datagen",
                                Map.of(
                                        "fields.id.kind",
                                        "sequence",
                                        "fields.id.end",
                                        Integer.toString(ROWS),
                                        "datagen.rows.per.second",
                                        "6000",
                                        "datagen.split.num",
                                        "2"),
                                null,
                                null,
                                null,
                                null,
                                false,
                                0,
                                SourceDef.UNLIMITED),
                        null,
                        List.of(),
                        io.tributary.catalog.RelationKind.TABLE);
                awaitIngested(sources, ROWS / 4);
                failNext.set(2);
                awaitIngested(sources, ROWS);
            } finally {
                sources.close();
                barriers.close();
                streams.close();
            }
            assertEquals(2, failures.get(), "two epochs failed to commit");
            TableDef table = catalogService.catalog().require("g");
            RowCodec codec = new RowCodec(table.columnTypes());
            Set<Long> ids = new HashSet<>();
            long rows = 0;
            try (ReadView view = rocks.snapshot();
                    KvIterator it = view.scan(
                            Keyspace.DATA, TableKeys.tableStart(table.id()), TableKeys.tableEnd(table.id()))) {
                while (it.next()) {
                    rows++;
                    ids.add((Long) codec.decode(it.value())[0]);
                }
            }
            assertEquals(ROWS, rows, "rows in the table");
            assertEquals(ROWS, ids.size(), "distinct ids");
            assertTrue(ids.contains(1L) && ids.contains((long) ROWS));
        }
    }

    private static void awaitIngested(SourceManager sources, long rows) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 30_000;
        while (sources.progress().stream()
                        .mapToLong(SourceManager.SplitProgress::rowsIngested)
                        .sum()
                < rows) {
            assertTrue(System.currentTimeMillis() < deadline, "timed out waiting for " + rows + " rows");
            Thread.sleep(10);
        }
    }
}

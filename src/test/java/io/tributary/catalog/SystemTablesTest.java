package io.tributary.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SystemTablesTest {
    private record Named(String name) implements SystemTable {
        @Override
        public List<ColumnDef> columns() {
            return List.of(new ColumnDef("n", DataType.INTEGER, true, false));
        }

        @Override
        public List<Object[]> rows() {
            return List.of();
        }
    }

    @Test
    void registersListsInNameOrderAndLooksUp() {
        SystemTables tables = new SystemTables();
        Named b = new Named("b_progress");
        Named a = new Named("a_progress");
        tables.register(b);
        tables.register(a);
        assertEquals(List.of(a, b), tables.tables());
        assertSame(a, tables.require("a_progress"));
        assertTrue(tables.table("c_progress").isEmpty());
    }

    @Test
    void duplicateNameIsRefused() {
        SystemTables tables = new SystemTables();
        tables.register(new Named("jobs"));
        assertThrows(IllegalArgumentException.class, () -> tables.register(new Named("jobs")));
        assertEquals(1, tables.tables().size());
    }

    @Test
    void unregisterRemovesAndFreesTheName() {
        SystemTables tables = new SystemTables();
        tables.register(new Named("jobs"));
        assertTrue(tables.unregister("jobs"));
        assertFalse(tables.unregister("jobs"));
        assertTrue(tables.tables().isEmpty());
        tables.register(new Named("jobs"));
        assertEquals(1, tables.tables().size());
    }

    @Test
    void missingTableIsThePostgresUndefinedTableError() {
        TributaryException e = assertThrows(TributaryException.class, () -> new SystemTables().require("nope"));
        assertEquals(SqlState.UNDEFINED_TABLE, e.sqlState());
        assertEquals("relation \"tributary_catalog.nope\" does not exist", e.getMessage());
    }

    @Test
    void versionGrowsOnlyWhenTheSetChanges() {
        SystemTables tables = new SystemTables();
        long v0 = tables.version();
        tables.register(new Named("jobs"));
        long v1 = tables.version();
        assertTrue(v1 > v0);
        tables.unregister("missing");
        assertEquals(v1, tables.version());
        tables.unregister("jobs");
        assertTrue(tables.version() > v1);
    }

    @Test
    void concurrentRegistrationLosesNothing() throws Exception {
        SystemTables tables = new SystemTables();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < 250; i++) {
                        tables.register(new Named("t" + thread + "_" + i));
                        tables.tables();
                    }
                }));
            }
            for (Future<?> f : futures) {
                f.get(10, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(1000, tables.tables().size());
        assertEquals(1000, tables.version());
    }
}

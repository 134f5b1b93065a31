package io.tributary.meta.ddl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The decision {@code SET remote_backfill} and {@code SET fallback_to_local} lead to for a new view. */
class ViewBackfillPlacementTest {
    private final List<String> notices = new ArrayList<>();

    @Test
    void theDefaultsRunInTheServerSilently() {
        assertSame(ViewBackfillPlacement.LOCAL, ViewBackfillPlacement.LOCAL.place("v", true, notices::add));
        assertSame(ViewBackfillPlacement.LOCAL, new ViewBackfillPlacement(false, false).place("v", true, notices::add));
        assertEquals(List.of(), notices);
    }

    @Test
    void withoutAJobsDatabaseItRunsInTheServerAndSaysWhy() {
        assertSame(ViewBackfillPlacement.LOCAL, new ViewBackfillPlacement(true, false).place("v", false, notices::add));
        assertEquals(
                List.of("materialized view \"v\" is backfilled in the server: remote_backfill needs a server started"
                        + " with --jobs-url"),
                notices);
    }

    @Test
    void withAJobsDatabaseItAsksForAWorker() {
        ViewBackfillPlacement asked = new ViewBackfillPlacement(true, false);
        assertSame(asked, asked.place("v", true, notices::add));
        assertSame(asked, asked.forPlan("v", false, notices::add));
        assertEquals(List.of(), notices);
    }

    @Test
    void aViewReadingOtherDatabasesRunsInTheServerOrIsRefusedWithoutFallback() {
        assertNull(new ViewBackfillPlacement(true, true).forPlan("v", true, notices::add));
        assertEquals(
                List.of("materialized view \"v\" is backfilled in the server: workers do not compute the snapshot"
                        + " phase of a view reading other databases"),
                notices);
        TributaryException e = assertThrows(
                TributaryException.class,
                () -> new ViewBackfillPlacement(true, false).forPlan("v", true, notices::add));
        assertEquals(SqlState.FEATURE_NOT_SUPPORTED, e.sqlState());
    }
}

package io.tributary.meta.ddl;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
    void theDefaultRunsInTheServerSilently() {
        ViewBackfillPlacement.LOCAL.placeLocally("v", true, notices::add);
        new ViewBackfillPlacement(false, false).placeLocally("v", true, notices::add);
        assertEquals(List.of(), notices);
    }

    @Test
    void withoutAJobsDatabaseAskingForAWorkerRunsInTheServerWithANotice() {
        new ViewBackfillPlacement(true, false).placeLocally("v", false, notices::add);
        assertEquals(
                List.of("materialized view \"v\" is backfilled in the server: remote_backfill needs a server started"
                        + " with --jobs-url"),
                notices);
    }

    @Test
    void withAJobsDatabaseAFallbackRunsInTheServerNamingWhy() {
        new ViewBackfillPlacement(true, true).placeLocally("v", true, notices::add);
        assertEquals(
                List.of("materialized view \"v\" is backfilled in the server: " + ViewBackfillPlacement.NOT_BUILT),
                notices);
    }

    @Test
    void withAJobsDatabaseAndNoFallbackItIsRefused() {
        TributaryException e = assertThrows(
                TributaryException.class,
                () -> new ViewBackfillPlacement(true, false).placeLocally("v", true, notices::add));
        assertEquals(SqlState.FEATURE_NOT_SUPPORTED, e.sqlState());
        assertEquals(
                "remote backfill of materialized view \"v\" is not supported: " + ViewBackfillPlacement.NOT_BUILT,
                e.getMessage());
        assertEquals(List.of(), notices);
    }
}

package io.tributary.differential;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The fixture of the foreign-key action differential tests ({@link ForeignKeyActionsDifferentialTest},
 * {@link ForeignKeyOnUpdateDifferentialTest}): before the class's tests a fresh PostgreSQL database and a
 * temporary Tributary, closed after them; statements run on both in order, their outcomes written
 * by {@link ForeignKeyDifferentialTest#outcome} (errors with DETAIL and object fields). Registered
 * as a static field with {@code @RegisterExtension}; used from the test thread only.
 */
final class ForeignKeyActionComparison implements BeforeAllCallback, AfterAllCallback {
    private final String dataDirPrefix;
    private final List<String> views;
    private Connection pg;
    private InProcessTributary tributary;

    /**
     * @param dataDirPrefix the prefix of Tributary's temporary data directory
     * @param views the materialized views the statements read: PostgreSQL's is as of its last
     *     refresh, Tributary's current at each commit, so PostgreSQL's is refreshed before a
     *     statement that reads {@code FROM view }
     */
    ForeignKeyActionComparison(String dataDirPrefix, List<String> views) {
        this.dataDirPrefix = dataDirPrefix;
        this.views = views;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        pg = DifferentialPostgres.freshDev();
        tributary = InProcessTributary.temporary(dataDirPrefix, 20, "postgres", "", 60);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        Cleanup.closeAll(pg, tributary);
    }

    /** Each of {@code statements} run on both in order; one entry, with both outcomes, per statement that differs. */
    List<String> mismatches(List<String> statements) throws SQLException {
        List<String> mismatches = new ArrayList<>();
        for (String sql : statements) {
            for (String view : views) {
                if (sql.contains("FROM " + view + " ")) {
                    try (Statement s = pg.createStatement()) {
                        s.execute("REFRESH MATERIALIZED VIEW " + view);
                    }
                }
            }
            String expected = ForeignKeyDifferentialTest.outcome(pg, sql);
            String actual = ForeignKeyDifferentialTest.outcome(tributary.connection, sql);
            if (!expected.equals(actual)) {
                mismatches.add(sql + "\n  postgres:  " + expected + "\n  tributary: " + actual);
            }
        }
        return mismatches;
    }
}

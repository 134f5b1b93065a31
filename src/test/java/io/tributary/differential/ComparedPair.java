package io.tributary.differential;

import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The fixture of a differential test class that runs statements against PostgreSQL and Tributary
 * and compares their outcomes (rows with labels and types, update counts, SQLSTATEs and messages)
 * as one {@link ComparedOutcomes} writes them. Registered as a static field with {@code
 * @RegisterExtension}: a {@link PostgresPairFixture} (the pair, started and set up before the
 * class's tests, closed after them) with the comparison. Used from the test thread only.
 */
final class ComparedPair implements BeforeAllCallback, AfterAllCallback {
    private final PostgresPairFixture fixture;
    private final ComparedOutcomes outcomes;

    /**
     * @param dataDirPrefix the prefix of Tributary's temporary data directory
     * @param setup a {@code ;}-separated script run on both before the tests (may be empty)
     * @param outcomes how outcomes are written, so what is compared
     */
    ComparedPair(String dataDirPrefix, String setup, ComparedOutcomes outcomes) {
        this.fixture = new PostgresPairFixture(dataDirPrefix, setup);
        this.outcomes = outcomes;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        fixture.beforeAll(context);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        fixture.afterAll(context);
    }

    /** Each of {@code statements} run on both in order; see {@link ComparedOutcomes#mismatches}. */
    List<String> mismatches(List<String> statements) {
        return outcomes.mismatches(fixture.pg(), fixture.tributary(), statements);
    }

    /** Runs the {@code ;}-separated {@code script} on PostgreSQL, then on Tributary. */
    void runOnBoth(String script) throws SQLException {
        fixture.runOnBoth(script);
    }

    /** Runs the {@code ;}-separated {@code script} on Tributary alone. */
    void runOnTributary(String script) throws SQLException {
        InProcessTributary.execScript(fixture.tributary(), script);
    }

    /** What {@code sql} gives on PostgreSQL, as {@link ComparedOutcomes#of} writes it. */
    String onPostgres(String sql) {
        return outcomes.of(fixture.pg(), sql);
    }

    /** What {@code sql} gives on Tributary, as {@link ComparedOutcomes#of} writes it. */
    String onTributary(String sql) {
        return outcomes.of(fixture.tributary(), sql);
    }
}

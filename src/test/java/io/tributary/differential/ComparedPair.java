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
 * @RegisterExtension}: before the class's tests it starts a {@link PostgresPair} and runs the
 * setup script on both, after them it closes the pair. Used from the test thread only.
 */
final class ComparedPair implements BeforeAllCallback, AfterAllCallback {
    private final String dataDirPrefix;
    private final String setup;
    private final ComparedOutcomes outcomes;
    private PostgresPair pair;

    /**
     * @param dataDirPrefix the prefix of Tributary's temporary data directory
     * @param setup a {@code ;}-separated script run on both before the tests (may be empty)
     * @param outcomes how outcomes are written, so what is compared
     */
    ComparedPair(String dataDirPrefix, String setup, ComparedOutcomes outcomes) {
        this.dataDirPrefix = dataDirPrefix;
        this.setup = setup;
        this.outcomes = outcomes;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        pair = PostgresPair.start(dataDirPrefix);
        runOnBoth(setup);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        Cleanup.closeAll(pair);
    }

    /** Each of {@code statements} run on both in order; see {@link ComparedOutcomes#mismatches}. */
    List<String> mismatches(List<String> statements) {
        return outcomes.mismatches(pair.pg, pair.tributary.connection, statements);
    }

    /** Runs the {@code ;}-separated {@code script} on PostgreSQL, then on Tributary. */
    void runOnBoth(String script) throws SQLException {
        InProcessTributary.execScript(pair.pg, script);
        runOnTributary(script);
    }

    /** Runs the {@code ;}-separated {@code script} on Tributary alone. */
    void runOnTributary(String script) throws SQLException {
        InProcessTributary.execScript(pair.tributary.connection, script);
    }

    /** What {@code sql} gives on PostgreSQL, as {@link ComparedOutcomes#of} writes it. */
    String onPostgres(String sql) {
        return outcomes.of(pair.pg, sql);
    }

    /** What {@code sql} gives on Tributary, as {@link ComparedOutcomes#of} writes it. */
    String onTributary(String sql) {
        return outcomes.of(pair.tributary.connection, sql);
    }
}

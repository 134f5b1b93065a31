package io.tributary.differential;

import java.sql.Connection;
import java.sql.SQLException;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A {@link PostgresPair} as the fixture of a test class, registered as a static field with {@code
 * @RegisterExtension}: before the class's tests it starts the pair ({@link PostgresPair#start})
 * and runs the setup script on PostgreSQL, then on Tributary; after them it closes the pair. It
 * compares nothing: the tests compare with {@link StatementOutcome} as they choose. Used from the
 * test thread only.
 */
final class PostgresPairFixture implements BeforeAllCallback, AfterAllCallback {
    private final String dataDirPrefix;
    private final String setup;
    private PostgresPair pair;

    /**
     * @param dataDirPrefix the prefix of Tributary's temporary data directory
     * @param setup a {@code ;}-separated script run on both before the tests (may be empty)
     */
    PostgresPairFixture(String dataDirPrefix, String setup) {
        this.dataDirPrefix = dataDirPrefix;
        this.setup = setup;
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

    /** The connection to PostgreSQL's fresh {@code dev} database. */
    Connection pg() {
        return pair.pg;
    }

    /** The connection to Tributary. */
    Connection tributary() {
        return pair.tributary.connection;
    }

    /** Runs the {@code ;}-separated {@code script} on PostgreSQL, then on Tributary. */
    void runOnBoth(String script) throws SQLException {
        InProcessTributary.execScript(pair.pg, script);
        InProcessTributary.execScript(pair.tributary.connection, script);
    }
}

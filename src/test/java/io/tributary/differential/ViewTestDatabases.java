package io.tributary.differential;

import java.sql.Connection;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The two databases of a differential test of views over many rows, as a JUnit extension: a test
 * class registers it as a static field with {@code @RegisterExtension}; before its tests JUnit
 * opens {@link PostgresPair#forViews} (a fresh PostgreSQL {@code dev} and a temporary Tributary),
 * after them closes it. Used from the test thread.
 */
final class ViewTestDatabases implements BeforeAllCallback, AfterAllCallback {
    private final String dataDirPrefix;
    private PostgresPair pair;

    ViewTestDatabases(String dataDirPrefix) {
        this.dataDirPrefix = dataDirPrefix;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        pair = PostgresPair.forViews(dataDirPrefix);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        Cleanup.closeAll(pair);
    }

    /** The PostgreSQL session, autocommit on. */
    Connection pg() {
        return pair.pg;
    }

    /** The Tributary session, as {@code root}, autocommit on. */
    Connection trib() {
        return pair.tributary.connection;
    }
}

package io.tributary.crash;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

/** A client that writes to the server under test until the server is killed. */
interface CrashWriter {
    /**
     * Writes until a statement fails; a failure after {@code killing} was set is the crash, one
     * before it a bug.
     *
     * @param firstAcknowledged counted down once this writer's first statement is acknowledged
     * @throws AssertionError on a bug
     */
    void run(String jdbcUrl, AtomicBoolean killing, CountDownLatch firstAcknowledged);
}

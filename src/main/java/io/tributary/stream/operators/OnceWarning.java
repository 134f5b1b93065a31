package io.tributary.stream.operators;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A warning logged the first time a condition is met and not again, so a condition that holds for
 * many groups or rows does not flood the log. One per aggregate call of one operator; actor thread only.
 */
final class OnceWarning {
    private static final Logger LOG = LoggerFactory.getLogger(HashAggOperator.class);

    private final String message;
    private boolean logged;

    OnceWarning(String message) {
        this.message = message;
    }

    void log() {
        if (!logged) {
            logged = true;
            LOG.warn(message);
        }
    }
}

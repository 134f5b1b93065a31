package io.tributary.sql.calcite;

import io.tributary.plan.SessionCleaning;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlLeadLagAggFunction;
import org.apache.calcite.sql.fun.SqlMinMaxAggFunction;

/**
 * The window functions of a view's SESSION expansion over a watermarked table ({@link
 * SessionWindows}): Calcite's {@code LAG} and {@code MAX}, computed alike, that also carry the
 * session's gap and table through Calcite's window rules to {@link WindowPlans}, which gives their
 * {@link io.tributary.plan.OverWindowNode}s a {@link SessionCleaning}. Recognising the expansion
 * by its shape instead would break as soon as a rule merged or moved one of its projections.
 */
final class SessionCalls {
    private SessionCalls() {}

    /** A window call of a session expansion: its gap, its watermarked table, where its node finds the time. */
    interface Marked {
        long gapMillis();

        int relationId();

        /** Whether the time is the window's order key (else the call's argument). */
        boolean timeIsOrderKey();

        /** The cleaning of the node computing this call, its time being input column {@code timeColumn}. */
        default SessionCleaning cleaning(int timeColumn) {
            return new SessionCleaning(timeColumn, gapMillis(), relationId());
        }
    }

    /** {@code lag(t)} over a partition in time order: whether a row starts a session. */
    static final class Lag extends SqlLeadLagAggFunction implements Marked {
        private final long gapMillis;
        private final int relationId;

        Lag(long gapMillis, int relationId) {
            super(SqlKind.LAG);
            this.gapMillis = gapMillis;
            this.relationId = relationId;
        }

        @Override
        public long gapMillis() {
            return gapMillis;
        }

        @Override
        public int relationId() {
            return relationId;
        }

        @Override
        public boolean timeIsOrderKey() {
            return false;
        }
    }

    /**
     * {@code max} of the session starts in time order ({@code runningStart}), or of the time per
     * session.
     */
    static final class Max extends SqlMinMaxAggFunction implements Marked {
        private final long gapMillis;
        private final int relationId;
        private final boolean runningStart;

        Max(long gapMillis, int relationId, boolean runningStart) {
            super(SqlKind.MAX);
            this.gapMillis = gapMillis;
            this.relationId = relationId;
            this.runningStart = runningStart;
        }

        @Override
        public long gapMillis() {
            return gapMillis;
        }

        @Override
        public int relationId() {
            return relationId;
        }

        @Override
        public boolean timeIsOrderKey() {
            return runningStart;
        }
    }
}

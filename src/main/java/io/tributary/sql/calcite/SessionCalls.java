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

    /**
     * What a window call of a session expansion carries: its gap, its watermarked table, and where
     * its node finds the time.
     *
     * @param timeIsOrderKey whether the time is the window's order key (else the call's argument)
     */
    record Mark(long gapMillis, int relationId, boolean timeIsOrderKey) {
        /** The cleaning of the node computing the call, its time being input column {@code timeColumn}. */
        SessionCleaning cleaning(int timeColumn) {
            return new SessionCleaning(timeColumn, gapMillis, relationId);
        }
    }

    /** A window call of a session expansion. */
    interface Marked {
        Mark mark();
    }

    /** {@code lag(t)} over a partition in time order: whether a row starts a session. */
    static final class Lag extends SqlLeadLagAggFunction implements Marked {
        private final Mark mark;

        Lag(long gapMillis, int relationId) {
            super(SqlKind.LAG);
            this.mark = new Mark(gapMillis, relationId, false);
        }

        @Override
        public Mark mark() {
            return mark;
        }
    }

    /**
     * {@code max} of the session starts in time order ({@code runningStart}), or of the time per
     * session.
     */
    static final class Max extends SqlMinMaxAggFunction implements Marked {
        private final Mark mark;

        Max(long gapMillis, int relationId, boolean runningStart) {
            super(SqlKind.MAX);
            this.mark = new Mark(gapMillis, relationId, runningStart);
        }

        @Override
        public Mark mark() {
            return mark;
        }
    }
}

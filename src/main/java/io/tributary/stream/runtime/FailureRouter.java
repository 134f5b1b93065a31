package io.tributary.stream.runtime;

/**
 * Sends a job's actor failures to whoever must hear of them: the job's backfill coordinator while
 * the job is being backfilled, the epoch collector once it is live (the epoch then cannot commit).
 */
final class FailureRouter implements Actor.FailureSink {
    private volatile Actor.FailureSink target;

    FailureRouter(Actor.FailureSink target) {
        this.target = target;
    }

    void route(Actor.FailureSink to) {
        this.target = to;
    }

    @Override
    public void failed(Actor actor, Throwable error) {
        target.failed(actor, error);
    }
}

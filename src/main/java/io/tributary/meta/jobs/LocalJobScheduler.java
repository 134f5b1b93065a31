package io.tributary.meta.jobs;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Runs every job in this process ({@link RemoteJob#local()}): what a server without {@code
 * --jobs-url} does, and where a remote job falls back to. Never fails to schedule.
 */
public final class LocalJobScheduler implements RemoteJobScheduler {
    private final Map<JobId, Running> running = new ConcurrentHashMap<>();

    private record Running(RemoteJob job, long startedMillis) {}

    @Override
    public JobId schedule(RemoteJob job, Notifier notifier) {
        Running previous = running.put(job.id(), new Running(job, System.currentTimeMillis()));
        if (previous != null) {
            previous.job().local().stop();
        }
        job.local().start(result -> {
            running.remove(job.id());
            notifier.notify(result);
        });
        return job.id();
    }

    @Override
    public void cancel(JobId id) {
        Running r = running.remove(id);
        if (r != null) {
            r.job().local().stop();
        }
    }

    /** Local runs keep no state across restarts: stopping is cancelling. */
    @Override
    public void stop(JobId id) {
        cancel(id);
    }

    @Override
    public String placement(JobId id) {
        return running.containsKey(id) ? "local" : null;
    }

    @Override
    public List<RemoteJobInfo> jobs() {
        return running.values().stream()
                .map(r -> new RemoteJobInfo(
                        r.job().id().value(),
                        r.job().kind(),
                        r.job().owner(),
                        null,
                        "running",
                        1,
                        r.startedMillis(),
                        0,
                        null))
                .toList();
    }

    @Override
    public List<WorkerInfo> workers() {
        return List.of();
    }

    @Override
    public void close() {
        for (JobId id : List.copyOf(running.keySet())) {
            cancel(id);
        }
    }
}

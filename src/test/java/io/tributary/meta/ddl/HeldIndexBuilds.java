package io.tributary.meta.ddl;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Holds the index builds of named indexes at a step (the first time they reach it) until the
 * test releases them, so that a test acts while a build is observably in progress instead of
 * sleeping and hoping: {@code try (HeldIndexBuilds held = HeldIndexBuilds.afterScan("i")) {}
 * start the build on another thread; held.awaitHeld("i"); ...; held.release("i"); }}. Installs
 * itself as {@link IndexBuild#observer} (one at a time: the test classes using it run their builds
 * one after another); builds of other indexes are not held. Closing releases every build and
 * uninstalls it.
 */
public final class HeldIndexBuilds implements AutoCloseable, IndexBuild.StepObserver {
    private static final long TIMEOUT_MS = TimeUnit.SECONDS.toMillis(60);

    private final IndexBuild.Step step;
    private final Set<String> names;
    /** Per index: the build while it is held at {@link #step}. */
    private final Map<String, IndexBuild> held = new HashMap<>();
    /** Index names and steps reached, as "name step". */
    private final Set<String> reached = new HashSet<>();

    private final Set<String> released = new HashSet<>();

    private HeldIndexBuilds(IndexBuild.Step step, Set<String> names) {
        this.step = step;
        this.names = names;
        IndexBuild.observer = this;
    }

    /** Holds the builds of {@code names} once their snapshot's entries are written. */
    public static HeldIndexBuilds afterScan(String... names) {
        return new HeldIndexBuilds(IndexBuild.Step.SCANNED, Set.of(names));
    }

    @Override
    public synchronized void reached(IndexBuild build, IndexBuild.Step at) throws InterruptedException {
        String name = build.indexName();
        if (!names.contains(name)) {
            return;
        }
        reached.add(name + " " + at);
        notifyAll();
        if (at != step || released.contains(name)) {
            return;
        }
        held.put(name, build);
        notifyAll();
        try {
            while (!released.contains(name)) {
                wait();
            }
        } finally {
            held.remove(name);
        }
    }

    @Override
    public synchronized void columnsWaitForRewrite(String index) {
        if (index != null && names.contains(index)) {
            reached.add(index + " " + IndexBuild.Step.WAITS_FOR_REWRITE);
            notifyAll();
        }
    }

    /** Waits until the build of {@code name} is held (fails after a minute). */
    public synchronized void awaitHeld(String name) throws InterruptedException {
        await(() -> held.containsKey(name), name + " held at " + step);
    }

    /**
     * Waits until the build of {@code name} waits for a rewrite's claim on its table before it
     * starts, or its CREATE INDEX waits for one before it resolves its columns.
     */
    public synchronized void awaitWaitingForRewrite(String name) throws InterruptedException {
        await(() -> reached.contains(name + " " + IndexBuild.Step.WAITS_FOR_REWRITE), name + " waiting for a rewrite");
    }

    /**
     * Waits until a rewrite (an ALTER TABLE) claims the table of the held build of {@code name}, or
     * {@code orElse} is true (the ALTER ended: then it did not wait).
     */
    public void awaitRewriteClaim(String name, BooleanSupplier orElse) throws InterruptedException {
        IndexBuild build;
        synchronized (this) {
            build = held.get(name);
        }
        if (build == null) {
            throw new AssertionError(name + " is not held");
        }
        long end = System.currentTimeMillis() + TIMEOUT_MS;
        while (!build.rewriteClaimed() && !orElse.getAsBoolean()) {
            if (System.currentTimeMillis() > end) {
                throw new AssertionError("no rewrite claimed the table of " + name);
            }
            Thread.sleep(2);
        }
    }

    /** Lets the build of {@code name} go on (and not be held again). */
    public synchronized void release(String name) {
        released.add(name);
        notifyAll();
    }

    @Override
    public synchronized void close() {
        released.addAll(names);
        notifyAll();
        if (IndexBuild.observer == this) {
            IndexBuild.observer = null;
        }
    }

    private void await(BooleanSupplier condition, String what) throws InterruptedException {
        long end = System.currentTimeMillis() + TIMEOUT_MS;
        while (!condition.getAsBoolean()) {
            long left = end - System.currentTimeMillis();
            if (left <= 0) {
                throw new AssertionError("timed out waiting until " + what);
            }
            wait(left);
        }
    }
}

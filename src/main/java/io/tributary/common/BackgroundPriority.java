package io.tributary.common;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Marks the calling thread as background work, so the operating system runs it only in what the
 * writers leave of the CPU: backfills, and the snapshot pieces a server exports to remote workers.
 *
 * <p>Why the operating system and not cooperative yielding: a writer's single-row INSERT spends
 * most of its time waiting for its epoch's synced write, and in that time a background thread may
 * use the whole core; when the writer wakes, the kernel's scheduler must hand the core back at
 * once, which only it can do. Cooperative yielding would either stop the background work while
 * any writer is in flight (a steady writer starves it) or react a slice too late.
 *
 * <p>On Linux the thread's nice value is raised to {@value #NICE} with {@code setpriority(2)} on its
 * thread id: the completely fair scheduler gives a runnable nice-19 thread 15/1024 of a nice-0
 * thread's share and lets a waking nice-0 thread preempt it. Any user may lower its own threads'
 * priority; raising it back needs privilege, so a marked thread stays background until it ends:
 * callers mark only threads that do nothing else (or a connection's thread that serves only
 * workers). Elsewhere, or when the call fails, nothing changes: priority is a latency aid, never a
 * condition of correctness.
 */
public final class BackgroundPriority {
    private static final Logger LOG = LoggerFactory.getLogger(BackgroundPriority.class);
    /** The weakest CFS weight short of SCHED_IDLE, which would starve the work on a busy core. */
    static final int NICE = 19;

    private static final int PRIO_PROCESS = 0;
    private static final Path THREAD_SELF = Path.of("/proc/thread-self");
    /** libc, or null where this is not Linux or JNA cannot load it. */
    private static final CLibrary LIBC = load();

    private BackgroundPriority() {}

    /** The one libc function used; JNA binds it by name. */
    private interface CLibrary extends Library {
        int setpriority(int which, int who, int prio);
    }

    /**
     * Lowers the calling thread's CPU priority to background for the rest of its life. Any thread;
     * safe to call more than once.
     *
     * @return true when the priority was lowered, false when this platform cannot (nothing changed)
     */
    public static boolean lowerCurrentThread() {
        if (LIBC == null) {
            return false;
        }
        int tid;
        try {
            // "<pid>/task/<tid>": the kernel's id of this thread, which setpriority takes as "who"
            Path link = Files.readSymbolicLink(THREAD_SELF);
            tid = Integer.parseInt(link.getFileName().toString());
        } catch (IOException | RuntimeException e) {
            return false;
        }
        return LIBC.setpriority(PRIO_PROCESS, tid, NICE) == 0;
    }

    private static CLibrary load() {
        if (!Platform.isLinux()) {
            return null;
        }
        try {
            return Native.load(Platform.C_LIBRARY_NAME, CLibrary.class);
        } catch (UnsatisfiedLinkError | RuntimeException e) {
            LOG.info("background work runs at normal priority: libc not reachable ({})", e.toString());
            return null;
        }
    }
}

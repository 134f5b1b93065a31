package io.tributary.common;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
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
 * <p>On Linux the thread's nice value is raised to {@value #NICE} with {@code setpriority(2)} and its
 * policy becomes {@code SCHED_IDLE} with {@code sched_setscheduler(2)}, both on its thread id. The
 * policy is what keeps writers' latency: the kernel's EEVDF scheduler lets a running nice-19
 * thread finish its protected slice (about 0.75 ms) before a waking nice-0 thread gets the core,
 * and a single-row INSERT wakes several threads in turn (connection, statement, epoch commit), so
 * each of those hand-offs could wait a slice; a {@code SCHED_IDLE} thread is preempted as soon as
 * any normal thread wakes. Its share of a busy core is 3/1024 of a nice-0 thread's against nice
 * 19's 15/1024: both next to nothing, so the work still runs in what the writers leave. The nice
 * value stays where the policy call is refused (a seccomp filter, say). Any user may lower its own
 * threads' priority; raising it back needs privilege, so a marked thread may stay background until it
 * ends: callers mark only threads that do nothing else (or a connection's thread that serves only
 * workers), and raise one before waiting for it where writers wait in turn ({@link LoweredThread}). Elsewhere, or when the call fails, nothing changes: priority is a latency aid, never a
 * condition of correctness.
 */
public final class BackgroundPriority {
    private static final Logger LOG = LoggerFactory.getLogger(BackgroundPriority.class);
    /** The weakest weight of the normal policy, kept where {@link #SCHED_IDLE} is refused. */
    static final int NICE = 19;

    /** Linux's policy numbers ({@code sched.h}). */
    static final int SCHED_OTHER = 0;

    static final int SCHED_IDLE = 5;

    /** {@code -Dtributary.background_priority=false} leaves every thread at normal priority (for comparisons). */
    static final String ENABLED_PROPERTY = "tributary.background_priority";

    private static final int PRIO_PROCESS = 0;
    private static final Path THREAD_SELF = Path.of("/proc/thread-self");
    /** libc, or null where this is not Linux or JNA cannot load it. */
    private static final CLibrary LIBC = load();

    /** Set by {@link #keepNormalPriority}: nothing is lowered from then on. */
    private static volatile boolean kept;

    /** Each thread's own lowering, for {@link #ofCurrentThread}; {@link LoweredThread#NONE} when never lowered. */
    private static final ThreadLocal<LoweredThread> CURRENT = ThreadLocal.withInitial(() -> LoweredThread.NONE);

    /**
     * The time slice, in ns, of the threads that serve writers once {@link #shortenSlices} ran: the
     * kernel's shortest ({@code sched_setattr(2)} takes 0.1 to 100 ms).
     */
    static final long SHORT_SLICE_NANOS = 100_000;

    /** {@code sched_setattr} on x86-64 and on arm64; 0 elsewhere, where slices keep the kernel's default. */
    private static final long SCHED_SETATTR =
            Platform.is64Bit() ? (Platform.isIntel() ? 314 : Platform.isARM() ? 274 : 0) : 0;

    /** The size of the kernel's {@code struct sched_attr} as of Linux 4.13 (utilization clamps included). */
    private static final int SCHED_ATTR_SIZE = 56;

    /** Set once {@link #shortenSlices} succeeded: a thread raised back to the normal policy gets the short slice again. */
    private static volatile boolean shortSlices;

    private BackgroundPriority() {}

    /** The libc functions used; JNA binds them by name. */
    private interface CLibrary extends Library {
        int setpriority(int which, int who, int prio);

        int getpriority(int which, int who);

        /** {@code param} points at a {@code struct sched_param}, one int that must be 0 here. */
        int sched_setscheduler(int pid, int policy, int[] param);

        int sched_getscheduler(int pid);

        /** The raw system call, for {@code sched_setattr(2)}, which older C libraries do not wrap. */
        long syscall(long number, Object... args);
    }

    /** Whether a thread may take its priority back after lowering it; probed once, on first use. */
    private static final class Restoring {
        static final boolean ALLOWED = probeRestoring();
    }

    /**
     * A throwaway thread lowers itself by one step and raises itself back. It lives in this class, not
     * in {@link Restoring}: the thread's code must not need the class whose initialization waits for it.
     */
    private static boolean probeRestoring() {
        if (LIBC == null) {
            return false;
        }
        boolean[] allowed = {false};
        Thread t = new Thread(
                () -> {
                    int tid = currentTid();
                    if (tid < 0) {
                        return;
                    }
                    int normal = LIBC.getpriority(PRIO_PROCESS, tid);
                    allowed[0] = normal < NICE
                            && LIBC.setpriority(PRIO_PROCESS, tid, normal + 1) == 0
                            && LIBC.setpriority(PRIO_PROCESS, tid, normal) == 0
                            && setPolicy(tid, SCHED_IDLE)
                            && setPolicy(tid, SCHED_OTHER);
                },
                "background-priority-probe");
        t.start();
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        return allowed[0];
    }

    /**
     * Whether background work runs at low priority here (Linux, libc reachable, not turned off with
     * {@code -Dtributary.background_priority=false}); for components that lower their own threads,
     * e.g. RocksDB's compaction pool.
     */
    public static boolean enabled() {
        return LIBC != null && !kept;
    }

    /**
     * From now on no thread of this process is lowered: for a process all of whose work is the
     * background work itself (a remote job worker, whose scratch backfill would otherwise yield its
     * core to whatever else runs on that machine, with no writer of its own to make room for).
     * Threads lowered before stay lowered. Called once at start, before any such work; any thread.
     */
    public static void keepNormalPriority() {
        kept = true;
    }

    /**
     * Lowers the JVM's JIT compiler threads to nice {@value #NICE}, for the life of the process: the
     * compiled code comes a little later, but a compilation no longer takes the core from a writer
     * for its whole slice. Compilations are what a server under writers and a view build runs
     * besides its own threads: in session 40's scheduler trace of {@code bench remote}, the C1/C2
     * threads held the server's core for a quarter to a third of the time of every INSERT slower
     * than 2.5 ms, in the idle phases as in the backfills. Nice, not {@code SCHED_IDLE}: a busy core
     * would starve an idle-policy compiler for good and leave hot code interpreted. Compiler
     * threads the JVM starts later (it adds them as the queue grows) are started by a compiler
     * thread and inherit its nice value. The server's start calls this once; a worker does not, as
     * it has no writers to make room for. Threads are found by the names HotSpot gives them ({@code
     * C1 CompilerThre...}, {@code C2 CompilerThre...} in {@code /proc/self/task/<tid>/comm}).
     *
     * @return how many compiler threads were lowered (0 where this platform cannot, or another JVM's
     *     names differ)
     */
    public static int lowerJitCompilers() {
        if (!enabled()) {
            return 0;
        }
        int lowered = 0;
        try (java.util.stream.Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                String name;
                try {
                    name = Files.readString(task.resolve("comm")).trim();
                } catch (IOException e) {
                    // the thread ended since the listing
                    continue;
                }
                if ((name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre"))
                        && LIBC.setpriority(
                                        PRIO_PROCESS,
                                        Integer.parseInt(task.getFileName().toString()),
                                        NICE)
                                == 0) {
                    lowered++;
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.info("the JIT compiler threads keep their priority: {}", e.toString());
        }
        return lowered;
    }

    /**
     * Gives the calling thread, and every thread it or its descendants start from now on, the
     * shortest time slice the kernel grants ({@value #SHORT_SLICE_NANOS} ns), so that such a thread
     * takes the core as soon as it wakes. Linux's EEVDF scheduler otherwise lets the running thread
     * finish its protected slice (1.4 ms on a 2-core machine) before a woken one of the normal
     * policy runs, and a single-row INSERT wakes several threads in turn (the connection's event
     * loop, the statement's thread, the epoch's commit, the views' actors), each of which could wait
     * that long behind a JIT compilation or another process: in session 41's scheduler trace of
     * {@code bench remote} the INSERT's thread spent 22-30% of its slow INSERTs' time woken and
     * waiting for the core. A short slice lets a woken thread preempt a running thread with a
     * longer one at once ({@code PREEMPT_SHORT}); a thread that runs long is still preempted only at
     * the scheduler tick, so throughput work loses little. Threads started earlier (the JVM's own:
     * JIT compilers, GC) keep the default slice; threads lowered to background ({@link
     * #lowerCurrentThread}) drop the short slice with the normal policy and get it back when raised.
     * The server's start calls this once, on its main thread, before it starts any other thread.
     *
     * @return whether the kernel took it (false on kernels before 6.12's custom slices, other
     *     architectures, a policy other than the normal one, or with background priority off)
     */
    public static boolean shortenSlices() {
        if (!enabled() || SCHED_SETATTR == 0) {
            return false;
        }
        int tid = currentTid();
        if (tid < 0 || LIBC.sched_getscheduler(tid) != SCHED_OTHER) {
            return false;
        }
        if (!setNormalWithSlice(tid, LIBC.getpriority(PRIO_PROCESS, tid), SHORT_SLICE_NANOS)) {
            LOG.info("threads keep the kernel's default time slice: sched_setattr refused");
            return false;
        }
        shortSlices = true;
        return true;
    }

    /**
     * Lowers the calling thread's CPU priority to background for the rest of its life, unless another
     * thread raises it ({@link LoweredThread#raise}) before waiting for it. Any thread; safe to call
     * more than once.
     *
     * @return the lowered thread ({@link LoweredThread#isLowered} false when this platform cannot
     *     lower it: nothing changed)
     */
    public static LoweredThread lowerCurrentThread() {
        if (!enabled()) {
            return LoweredThread.NONE;
        }
        int tid = currentTid();
        if (tid < 0) {
            return LoweredThread.NONE;
        }
        int normal = LIBC.getpriority(PRIO_PROCESS, tid);
        boolean niced = LIBC.setpriority(PRIO_PROCESS, tid, NICE) == 0;
        return setPolicy(tid, SCHED_IDLE) || niced ? remember(new LoweredThread(tid, normal)) : LoweredThread.NONE;
    }

    /**
     * Lowers the calling thread's CPU priority for a while, but only where it can be taken back with
     * {@link LoweredThread#raise}: for a thread whose background work turns into foreground work (a
     * view's actor once its backfill joins the live flow). Where raising back needs a privilege the
     * process lacks, nothing changes, since a foreground thread left at background priority would
     * make every writer that waits for it wait longer.
     *
     * @return the lowered thread, or {@link LoweredThread#NONE} when nothing was changed
     */
    public static LoweredThread lowerCurrentThreadRestorably() {
        if (kept || !Restoring.ALLOWED) {
            return LoweredThread.NONE;
        }
        int tid = currentTid();
        if (tid < 0) {
            return LoweredThread.NONE;
        }
        // raising sets the normal policy: a thread started in another (a server run under chrt -i, say) is left alone
        if (LIBC.sched_getscheduler(tid) != SCHED_OTHER) {
            return LoweredThread.NONE;
        }
        int normal = LIBC.getpriority(PRIO_PROCESS, tid);
        if (normal >= NICE || LIBC.setpriority(PRIO_PROCESS, tid, NICE) != 0) {
            return LoweredThread.NONE;
        }
        setPolicy(tid, SCHED_IDLE);
        return remember(new LoweredThread(tid, normal));
    }

    private static LoweredThread remember(LoweredThread lowered) {
        CURRENT.set(lowered);
        return lowered;
    }

    /**
     * The calling thread's lowering by this class ({@link LoweredThread#NONE} when it was never
     * lowered): for code that a background thread may run while others wait for it, which raises
     * the thread for that while ({@link LoweredThread#foreground}). Any thread; no allocation after
     * a thread's first call.
     */
    public static LoweredThread ofCurrentThread() {
        return CURRENT.get();
    }

    /**
     * A thread this class lowered, which any thread may raise back to the normal policy and the nice
     * value it had: the thread itself when its work turns foreground, or a thread about to wait for
     * it while writers wait in turn (stopping a backfill under the barrier lock), so that the wait is
     * not stretched by a background thread that gets next to no CPU on a busy core.
     */
    public static final class LoweredThread {
        /** Stands for a thread that was not lowered: raising it does nothing. */
        public static final LoweredThread NONE = new LoweredThread(-1, 0);

        private final int tid;
        private final int normal;
        /** Raised already, or ended: the kernel may give its id to another thread after it ends. */
        private volatile boolean done;
        /** At normal priority for a while, by its own {@link #foreground}. */
        private boolean foreground;

        private LoweredThread(int tid, int normal) {
            this.tid = tid;
            this.normal = normal;
            this.done = tid < 0;
        }

        /** Whether the thread's priority was lowered and not raised for good since ({@link #raise}). */
        public boolean isLowered() {
            return !done;
        }

        /**
         * Gives the thread the normal policy and its former nice value, at most once and never after
         * {@link #ended}. Any thread. Leaving {@code SCHED_IDLE} for the normal policy at nice 19
         * and lowering the nice value both need privilege ({@code CAP_SYS_NICE}, or an {@code
         * RLIMIT_NICE} of 20 or more, as root has): a thread lowered by {@link #lowerCurrentThread}
         * in a process without it stays background, and this returns false.
         *
         * @return whether the thread now runs at its normal priority
         */
        public synchronized boolean raise() {
            if (done) {
                return false;
            }
            done = true;
            if (foreground) {
                return true;
            }
            // the normal policy first: an idle thread's nice value does not matter until it is normal again
            return setNormal();
        }

        /**
         * The lowered thread itself, about to hold what foreground threads wait for (the barrier
         * lock, an epoch's commit): runs at its normal priority until {@link #background}, since a
         * background thread holding it would make them wait for whatever CPU the core leaves it.
         * Needs the same privilege as {@link #raise}.
         *
         * @return whether the thread was raised, and so must call {@link #background} when done
         */
        public boolean foreground() {
            if (done) {
                // never lowered, raised or ended: no lock, as every writer's thread asks
                return false;
            }
            synchronized (this) {
                if (done || foreground || !setNormal()) {
                    return false;
                }
                foreground = true;
                return true;
            }
        }

        /** The thread itself, after a {@link #foreground} that returned true: background again, unless raised for good meanwhile. */
        public synchronized void background() {
            if (!foreground) {
                return;
            }
            foreground = false;
            if (!done) {
                LIBC.setpriority(PRIO_PROCESS, tid, NICE);
                setPolicy(tid, SCHED_IDLE);
            }
        }

        private boolean setNormal() {
            if (shortSlices && setNormalWithSlice(tid, normal, SHORT_SLICE_NANOS)) {
                return true;
            }
            return setPolicy(tid, SCHED_OTHER) && LIBC.setpriority(PRIO_PROCESS, tid, normal) == 0;
        }

        /** Called by the lowered thread itself as it ends, so that its id is never raised after. */
        public synchronized void ended() {
            done = true;
        }
    }

    /**
     * One {@code sched_setattr(2)} call: the normal policy, nice value {@code nice} and a time slice
     * of {@code sliceNanos} for thread {@code tid}; whether the kernel took it.
     */
    private static boolean setNormalWithSlice(int tid, int nice, long sliceNanos) {
        // struct sched_attr: u32 size, u32 policy, u64 flags, s32 nice, u32 priority, u64 runtime,
        // u64 deadline, u64 period, u32 util_min, u32 util_max; the runtime is the slice for this policy
        ByteBuffer attr = ByteBuffer.allocate(SCHED_ATTR_SIZE).order(ByteOrder.nativeOrder());
        attr.putInt(SCHED_ATTR_SIZE)
                .putInt(SCHED_OTHER)
                .putLong(0)
                .putInt(nice)
                .putInt(0)
                .putLong(sliceNanos);
        return LIBC.syscall(SCHED_SETATTR, tid, attr.array(), 0) == 0;
    }

    private static boolean setPolicy(int tid, int policy) {
        return LIBC.sched_setscheduler(tid, policy, new int[] {0}) == 0;
    }

    /** The kernel's id of the calling thread, which setpriority takes as "who"; -1 when unknown. */
    private static int currentTid() {
        try {
            // the link reads "<pid>/task/<tid>"
            return Integer.parseInt(
                    Files.readSymbolicLink(THREAD_SELF).getFileName().toString());
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static CLibrary load() {
        if (!Platform.isLinux()) {
            return null;
        }
        if ("false".equals(System.getProperty(ENABLED_PROPERTY))) {
            LOG.info("background work runs at normal priority: -D{}=false", ENABLED_PROPERTY);
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

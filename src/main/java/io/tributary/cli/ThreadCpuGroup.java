package io.tributary.cli;

/**
 * The kinds of thread a {@code bench backfill} process runs, told apart by the name the kernel
 * keeps for each thread ({@code /proc/<pid>/task/<tid>/comm}: the Java or native name's first 15
 * bytes), for {@link ThreadGroupsCpu}. The order is the order of {@link #of}'s checks.
 */
enum ThreadCpuGroup {
    /** The view's actors and its backfill's coordinator and counter ({@code actor-*}, {@code backfill-*}). */
    JOB("job"),
    /** RocksDB's high-priority pool: memtable flushes. */
    ROCKSDB_HIGH("rocksdb:high"),
    /** RocksDB's low-priority (and bottom) pool: compactions. */
    ROCKSDB_LOW("rocksdb:low"),
    /** RocksDB's other threads (its periodic task scheduler, stats dumps). */
    ROCKSDB_OTHER("rocksdb other"),
    /** The helper threads writing a bulk load's SST files ({@code sst-load-writer}). */
    SST_WRITER("sst writer"),
    /** The pgwire sessions' statement threads ({@code pgwire-session-*}): the INSERTs' and job polls' server side. */
    SESSIONS("sessions"),
    /** Netty's event loops (pgwire's and the dashboard's sockets). */
    EVENT_LOOPS("event loops"),
    /** The epoch barrier's thread ({@code barrier-manager}). */
    BARRIER("barrier"),
    /** The JIT compilers. */
    JIT("JIT"),
    /** The collector's threads. */
    GC("GC"),
    /** The JVM's VM thread (safepoint operations) and periodic task thread. */
    VM("VM"),
    /** The bench's INSERT client ({@code bench-inserts}). */
    INSERT_CLIENT("INSERT client"),
    /** The bench's main thread: its {@code SHOW JOBS} polls' client side and these readings. */
    BENCH_MAIN("bench main"),
    /** Any other thread. */
    OTHER("other"),
    /**
     * CPU of threads that ended before their last reading: the process's total less every thread
     * read. Not a thread name of its own.
     */
    ENDED("ended threads");

    private final String label;

    ThreadCpuGroup(String label) {
        this.label = label;
    }

    /** A short name for printing. */
    String label() {
        return label;
    }

    /** The group of the thread whose kernel name is {@code comm}; never {@link #ENDED}. */
    static ThreadCpuGroup of(String comm) {
        if (comm.startsWith("actor-") || comm.startsWith("backfill-")) {
            return JOB;
        }
        if (comm.startsWith("rocksdb:")) {
            if (comm.startsWith("rocksdb:high")) {
                return ROCKSDB_HIGH;
            }
            return comm.startsWith("rocksdb:low") || comm.startsWith("rocksdb:bottom") ? ROCKSDB_LOW : ROCKSDB_OTHER;
        }
        if (comm.startsWith("sst-load-writer")) {
            return SST_WRITER;
        }
        if (comm.startsWith("pgwire-session-")) {
            return SESSIONS;
        }
        // Netty's default names: multiThreadIoEventLoopGroup-<n>-<m>, nioEventLoopGroup-<n>-<m>
        if (comm.startsWith("multiThreadIoEv") || comm.startsWith("nioEventLoop")) {
            return EVENT_LOOPS;
        }
        if (comm.startsWith("barrier-manager")) {
            return BARRIER;
        }
        if (comm.startsWith("C1 CompilerThre") || comm.startsWith("C2 CompilerThre")) {
            return JIT;
        }
        if (comm.startsWith("GC Thread#")
                || comm.startsWith("ParGC Thread#")
                || comm.startsWith("G1 ")
                || comm.startsWith("ZWorker")
                || comm.startsWith("Shenandoah")) {
            return GC;
        }
        if (comm.equals("VM Thread") || comm.startsWith("VM Periodic Tas")) {
            return VM;
        }
        if (comm.equals("bench-inserts")) {
            return INSERT_CLIENT;
        }
        // the launcher's main thread keeps the process's name, which Java's name "main" never replaces
        if (comm.equals("java") || comm.equals("main")) {
            return BENCH_MAIN;
        }
        return OTHER;
    }
}

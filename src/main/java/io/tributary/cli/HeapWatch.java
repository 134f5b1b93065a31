package io.tributary.cli;

import com.sun.management.GarbageCollectionNotificationInfo;
import com.sun.management.HotSpotDiagnosticMXBean;
import java.io.PrintStream;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * This JVM's heap limit and its collector's work while a benchmark runs its server in-process, so
 * that a report shows the heap the server ran in ({@code TRIBUTARY_JAVA_OPTS=-Xmx...}), how long
 * the collector stopped it, and how close the data held came to the limit. Made and closed by the
 * benchmark's main thread; the collector's notifications arrive on a JMX thread.
 */
final class HeapWatch implements AutoCloseable {
    private final AtomicLong peakAfterGc = new AtomicLong();
    private final List<NotificationEmitter> emitters = new ArrayList<>();
    private final NotificationListener listener = this::onCollection;
    private final long startPauseMillis = pauseMillis();
    private final long startCollections = collections();
    private final Set<String> heapPools = new HashSet<>();
    private long endPauseMillis = -1;
    private long endCollections = -1;

    /** Starts watching the collections from now on. */
    HeapWatch() {
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                heapPools.add(pool.getName());
            }
        }
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener(listener, null, null);
                emitters.add(emitter);
            }
        }
    }

    /**
     * The heap limit this JVM was started with ({@code -Xmx}, HotSpot's {@code MaxHeapSize}), in
     * bytes; where the JVM cannot tell, {@link Runtime#maxMemory}, which leaves out one survivor
     * space (1,820 MB for {@code -Xmx2g} with the parallel collector).
     */
    static long maxHeapBytes() {
        HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        if (hotspot != null) {
            try {
                return Long.parseLong(hotspot.getVMOption("MaxHeapSize").getValue());
            } catch (IllegalArgumentException e) {
                // not HotSpot's flag set: fall back below
            }
        }
        return Runtime.getRuntime().maxMemory();
    }

    /**
     * Milliseconds all collectors have spent so far (with the parallel collector, the time they
     * stopped the application); -1 where the JVM cannot tell.
     */
    static long pauseMillis() {
        long total = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            long millis = gc.getCollectionTime();
            if (millis < 0) {
                return -1;
            }
            total += millis;
        }
        return total;
    }

    private static long collections() {
        long total = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            total += Math.max(0, gc.getCollectionCount());
        }
        return total;
    }

    /** Keeps the largest heap in use after a collection: what the application held, plus garbage not yet reached. */
    private void onCollection(Notification notification, Object handback) {
        if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
            return;
        }
        GarbageCollectionNotificationInfo info =
                GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
        long used = 0;
        for (Map.Entry<String, MemoryUsage> pool :
                info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
            if (heapPools.contains(pool.getKey())) {
                used += pool.getValue().getUsed();
            }
        }
        peakAfterGc.accumulateAndGet(used, Math::max);
    }

    /**
     * Prints one line: the heap limit, the collections from this watch's start to its close (or
     * now, if open), their total time and the peak heap in use after one of them (heap pools only,
     * so the figure is comparable with the limit).
     */
    void print(PrintStream out, String what) {
        long pause = endPauseMillis >= 0 ? endPauseMillis : pauseMillis();
        long count = endCollections >= 0 ? endCollections : collections();
        out.printf(
                "heap: max %,d MB (-Xmx, from TRIBUTARY_JAVA_OPTS); %s: %,d collections, %.1f s in the collector,"
                        + " peak heap in use after a collection %,d MB (after a young collection this still counts"
                        + " dead objects already promoted, so it bounds the data held from above)%n",
                maxHeapBytes() >> 20,
                what,
                count - startCollections,
                pause < 0 || startPauseMillis < 0 ? Double.NaN : (pause - startPauseMillis) / 1e3,
                peakAfterGcBytes() >> 20);
    }

    /** The largest heap in use after a collection seen so far, in bytes; 0 before the first one's notification. */
    long peakAfterGcBytes() {
        return peakAfterGc.get();
    }

    /** Stops watching: {@link #print} reports up to now. */
    @Override
    public void close() {
        endPauseMillis = pauseMillis();
        endCollections = collections();
        for (NotificationEmitter emitter : emitters) {
            try {
                emitter.removeNotificationListener(listener);
            } catch (ListenerNotFoundException e) {
                // never added to this one: nothing to remove
            }
        }
    }
}

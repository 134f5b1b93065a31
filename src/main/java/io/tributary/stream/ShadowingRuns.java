package io.tributary.stream;

import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * Two sorted runs of writes as one, in unsigned key order; on a key both hold, the newer run's
 * write wins and the older one's is skipped. For {@link PendingWrites}, whose writes since the
 * last flush shadow those handed over at it. One thread.
 */
final class ShadowingRuns implements Iterator<Map.Entry<byte[], byte[]>> {

    private final Iterator<Map.Entry<byte[], byte[]>> newer;
    private final Iterator<Map.Entry<byte[], byte[]>> older;
    private Map.Entry<byte[], byte[]> nextNewer;
    private Map.Entry<byte[], byte[]> nextOlder;

    ShadowingRuns(Iterator<Map.Entry<byte[], byte[]>> newer, Iterator<Map.Entry<byte[], byte[]>> older) {
        this.newer = newer;
        this.older = older;
        this.nextNewer = newer.hasNext() ? newer.next() : null;
        this.nextOlder = older.hasNext() ? older.next() : null;
    }

    @Override
    public boolean hasNext() {
        return nextNewer != null || nextOlder != null;
    }

    @Override
    public Map.Entry<byte[], byte[]> next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        int cmp = nextNewer == null
                ? 1
                : nextOlder == null ? -1 : Arrays.compareUnsigned(nextNewer.getKey(), nextOlder.getKey());
        Map.Entry<byte[], byte[]> out;
        if (cmp <= 0) {
            out = nextNewer;
            nextNewer = newer.hasNext() ? newer.next() : null;
            if (cmp == 0) {
                nextOlder = older.hasNext() ? older.next() : null;
            }
        } else {
            out = nextOlder;
            nextOlder = older.hasNext() ? older.next() : null;
        }
        return out;
    }
}

package io.tributary.storage;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;

/**
 * A {@link ReadView} of a base view with changes laid over its {@link Keyspace#DATA} keys: a key
 * in the overlay reads as its overlay value, or as absent when that value is {@link #DELETED}.
 * An open transaction reads its snapshot with its own writes on top this way, so every table scan
 * and key lookup of the planner sees them without knowing of transactions.
 *
 * <p>The overlay map is the transaction's live map, changed between statements on the same
 * thread: a scan steps with {@link NavigableMap#higherEntry} from its last key instead of holding
 * an iterator, so a cursor left open across statements never fails (it sees the later writes of
 * keys it has not reached yet). Closing this view leaves the base open: the transaction owns it.
 * One thread at a time.
 */
public final class OverlayReadView implements ReadView {
    /** The overlay value of a key the transaction deleted; compared by identity. */
    public static final byte[] DELETED = new byte[0];

    private final ReadView base;
    private final NavigableMap<byte[], byte[]> overlay;
    /** Runs once, at the first {@link #close}. */
    private Runnable onClose;

    /**
     * @param overlay keys ordered by {@link Arrays#compareUnsigned(byte[], byte[])}, values or
     *     {@link #DELETED}
     * @param onClose runs at the first {@link #close} (the owner may then close the base)
     */
    public OverlayReadView(ReadView base, NavigableMap<byte[], byte[]> overlay, Runnable onClose) {
        this.base = base;
        this.overlay = overlay;
        this.onClose = onClose;
    }

    @Override
    public byte[] get(Keyspace keyspace, byte[] key) {
        if (keyspace == Keyspace.DATA) {
            byte[] own = overlay.get(key);
            if (own != null) {
                return own == DELETED ? null : own;
            }
        }
        return base.get(keyspace, key);
    }

    @Override
    public List<byte[]> getAll(Keyspace keyspace, List<byte[]> keys) {
        if (keyspace != Keyspace.DATA || overlay.isEmpty()) {
            return base.getAll(keyspace, keys);
        }
        List<byte[]> out = base.getAll(keyspace, keys);
        for (int i = 0; i < keys.size(); i++) {
            byte[] own = overlay.get(keys.get(i));
            if (own != null) {
                out.set(i, own == DELETED ? null : own);
            }
        }
        return out;
    }

    @Override
    public KvIterator scan(Keyspace keyspace, byte[] from, byte[] toExclusive) {
        KvIterator below = base.scan(keyspace, from, toExclusive);
        if (keyspace != Keyspace.DATA || overlay.isEmpty()) {
            return below;
        }
        return new Merged(below, from, toExclusive);
    }

    /** Leaves the base open: it belongs to whoever made this overlay, which {@code onClose} tells. */
    @Override
    public void close() {
        Runnable run = onClose;
        onClose = null;
        if (run != null) {
            run.run();
        }
    }

    /** The base scan and the overlay's keys in the same range, merged in key order; the overlay wins. */
    private final class Merged implements KvIterator {
        private final KvIterator below;
        private final byte[] toExclusive;
        /** The base scan's current pair, or null once it ended; it is ahead of what was returned. */
        private byte[] belowKey;

        private boolean belowStarted;
        /** The last overlay key considered, so the next one is found even if the map changed. */
        private byte[] overlayAfter;

        private Map.Entry<byte[], byte[]> overlayNext;
        private boolean overlayStarted;
        private byte[] key;
        private byte[] value;

        Merged(KvIterator below, byte[] from, byte[] toExclusive) {
            this.below = below;
            this.toExclusive = toExclusive;
            this.overlayAfter = from;
        }

        private void advanceBelow() {
            belowKey = below.next() ? below.key() : null;
        }

        private void advanceOverlay(boolean inclusive) {
            Map.Entry<byte[], byte[]> e =
                    inclusive ? overlay.ceilingEntry(overlayAfter) : overlay.higherEntry(overlayAfter);
            if (e != null && Arrays.compareUnsigned(e.getKey(), toExclusive) >= 0) {
                e = null;
            }
            overlayNext = e;
            if (e != null) {
                overlayAfter = e.getKey();
            }
        }

        @Override
        public boolean next() {
            if (!belowStarted) {
                belowStarted = true;
                advanceBelow();
            }
            if (!overlayStarted) {
                overlayStarted = true;
                advanceOverlay(true);
            }
            while (true) {
                if (belowKey == null && overlayNext == null) {
                    return false;
                }
                int order = belowKey == null
                        ? 1
                        : overlayNext == null ? -1 : Arrays.compareUnsigned(belowKey, overlayNext.getKey());
                if (order < 0) {
                    key = belowKey;
                    value = below.value();
                    advanceBelow();
                    return true;
                }
                Map.Entry<byte[], byte[]> own = overlayNext;
                if (order == 0) {
                    advanceBelow();
                }
                advanceOverlay(false);
                if (own.getValue() != DELETED) {
                    key = own.getKey();
                    value = own.getValue();
                    return true;
                }
            }
        }

        @Override
        public byte[] key() {
            return key;
        }

        @Override
        public byte[] value() {
            return value;
        }

        @Override
        public void close() {
            below.close();
        }
    }
}

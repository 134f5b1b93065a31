package io.tributary.stream.operators;

import io.tributary.common.codec.ByteWriter;
import io.tributary.common.types.DataType;
import io.tributary.common.types.TypeKind;
import io.tributary.plan.HashJoinNode;
import io.tributary.plan.IntervalJoinCleaning;
import io.tributary.plan.JoinCleaning;
import io.tributary.plan.JoinKind;
import io.tributary.plan.ScalarExpr;
import io.tributary.plan.StreamNode;
import io.tributary.storage.ReadView;
import io.tributary.stream.Barrier;
import io.tributary.stream.Chunk;
import io.tributary.stream.Op;
import io.tributary.stream.Operator;
import io.tributary.stream.Output;
import io.tributary.stream.StateWrites;
import io.tributary.stream.WatermarkReader;
import java.util.Arrays;
import java.util.List;

/**
 * The streaming equi-join of a {@link HashJoinNode}, with PostgreSQL's semantics for INNER, LEFT,
 * RIGHT and FULL joins. Output rows are the left columns then the right columns.
 *
 * <p>Two rows match when their join keys are SQL-equal column by column (equal memcomparable
 * encodings, so {@code -0.0 = 0.0} and {@code 1.0 = 1.00}; NULL equals nothing, or NULL where the
 * key pair is null-safe) and the node's condition, if any, is TRUE on the joined row. Each input
 * change is probed against the other side's rows of its join key and applied at once: an insert
 * emits its matches, a delete retracts them. A padded side's row appears NULL-padded exactly
 * while it has no match; its degree (stored with it) tells when a change on the other side gives
 * it its first match or takes its last one, so the padded row is retracted or re-emitted then.
 *
 * <p>Rows with a NULL in a key column that is not null-safe can never match, so they are not
 * stored: such a row of a padded side emits (and on delete retracts) its padded row and nothing
 * else, which needs no state.
 *
 * <p>State tables {@code stateTableIds[0]} (left) and {@code [1]} (right), see {@link JoinSide}; a
 * dimension join ({@link HashJoinNode#broadcastsRight()}) shares both among its actors, see there.
 * Nothing is held back across a barrier; {@link #onBarrier} flushes and, with {@link
 * HashJoinNode#cleaning()}, first deletes from both tables the rows whose join key the watermarks
 * finished (see {@link JoinCleaning}), or with {@link HashJoinNode#intervalCleaning()} the rows
 * whose time no later change of the other side can come near (see {@link IntervalJoinCleaning}),
 * found through an in-memory index of each cleaned side's join keys by time (those stored in the
 * actor's vnodes when it starts, and those inserted since). One actor thread, as {@link Operator}
 * requires.
 */
public final class HashJoinOperator implements Operator {
    /**
     * Join keys each side's cache holds by default: enough for a dimension table of tens of thousands of
     * keys, whose probes would otherwise each be a store scan (4096 keys made a 50,000-customer join
     * miss on most probes). Memory stays bounded: a few hundred bytes per key plus the cache's row
     * limit.
     */
    public static final int DEFAULT_CACHE_KEYS = 65_536;

    /**
     * Rows a side holds at most in held mode (see {@link JoinSide}): the cache's own row bound, so
     * held mode needs no more memory than a full cache.
     */
    static final int DEFAULT_HELD_ROWS = (int) JoinSide.MAX_CACHED_ROWS;

    private final JoinSide left;
    private final JoinSide right;
    private final boolean[] nullSafe;
    private final ScalarExpr condition;
    private final int outputWidth;
    /** The current input row's join key encoding, reused for every row (actor thread). */
    private final ByteWriter keyBuffer = new ByteWriter(32);
    /** Per row of the chunk being applied, the other (held) side's bucket {@link #probeHeld} found; reused. */
    private JoinBucket[] probed = new JoinBucket[Chunk.TARGET_SIZE];
    /** Per row of the chunk being applied, the first row of its {@link #probed} bucket; reused. */
    private Object[][] probedRows = new Object[Chunk.TARGET_SIZE][];
    /**
     * Per row of the chunk being applied, the (held) other side's cache entry of its join key
     * ({@link JoinSide#heldEntry}), or {@link #CANNOT_MATCH}; reused by {@link #probeHeld}.
     */
    private int[] probedEntries = new int[Chunk.TARGET_SIZE];
    /** A row whose join key has a NULL that is not null-safe: it is not probed. */
    private static final int CANNOT_MATCH = -2;
    /** Which rows the watermarks finish, by an equality of window bounds; or null. */
    private final JoinCleaning cleaning;
    /** Which rows the watermarks finish, by an interval condition; or null. */
    private final IntervalJoinCleaning intervalCleaning;

    private final WatermarkReader watermarks;
    /** With {@link #cleaning}: the vnodes whose stored keys are indexed at the first barrier, or null. */
    private int[] ownedVnodes;

    /**
     * @param stateTableIds the left then the right side's state table id
     * @param committed the store's latest committed state, read on cache misses; not closed here
     */
    public HashJoinOperator(HashJoinNode node, int[] stateTableIds, ReadView committed) {
        this(node, stateTableIds, committed, DEFAULT_CACHE_KEYS, DEFAULT_HELD_ROWS);
    }

    /**
     * As above, reading the watermarks of a node with {@link HashJoinNode#cleaning()} from {@code
     * watermarks}; such a node's join keys stored in {@code ownedVnodes} (the actor's, ascending)
     * are indexed at the first barrier, so a restored operator forgets them too.
     */
    public HashJoinOperator(
            HashJoinNode node, int[] stateTableIds, ReadView committed, WatermarkReader watermarks, int[] ownedVnodes) {
        this(node, stateTableIds, committed, DEFAULT_CACHE_KEYS, DEFAULT_HELD_ROWS, watermarks, ownedVnodes);
        this.ownedVnodes = cleaning == null && intervalCleaning == null ? null : ownedVnodes;
    }

    /**
     * As the first, with each side's cache bounded to {@code cacheKeys} join keys (at least 1) and
     * held mode to {@code heldRows} rows (0: off), for tests of either path.
     */
    HashJoinOperator(HashJoinNode node, int[] stateTableIds, ReadView committed, int cacheKeys, int heldRows) {
        this(node, stateTableIds, committed, cacheKeys, heldRows, WatermarkReader.NONE, null);
    }

    private HashJoinOperator(
            HashJoinNode node,
            int[] stateTableIds,
            ReadView committed,
            int cacheKeys,
            int heldRows,
            WatermarkReader watermarks,
            int[] vnodes) {
        if (stateTableIds.length != 2) {
            throw new IllegalArgumentException("a hash join keeps two state tables");
        }
        if (node.leftKeys().length != node.rightKeys().length || node.nullSafe().length != node.leftKeys().length) {
            throw new IllegalArgumentException("left keys, right keys and null-safe flags differ in number");
        }
        JoinKind kind = node.kind();
        // A dimension join's tables are not split by the actors' vnodes: every actor writes the
        // whole right side, and its own left rows under their join keys' vnodes, so held mode
        // looks at the whole table and a left scan keeps the actor's own rows.
        boolean broadcast = node.broadcastsRight();
        this.left = new JoinSide(
                node.left(),
                node.leftKeys(),
                kind.padsLeft(),
                stateTableIds[0],
                committed,
                cacheKeys,
                heldRows,
                broadcast ? null : vnodes,
                broadcast && vnodes != null ? leftOwner(node.left(), vnodes) : null);
        this.right = new JoinSide(
                node.right(),
                node.rightKeys(),
                kind.padsRight(),
                stateTableIds[1],
                committed,
                cacheKeys,
                heldRows,
                broadcast ? null : vnodes,
                null);
        if (broadcast) {
            right.keepHeldWhileOtherQuiet();
        }
        requireSameKeyEncoding(left.keyTypes(), right.keyTypes());
        this.nullSafe = node.nullSafe().clone();
        this.condition = node.condition();
        this.outputWidth = left.width() + right.width();
        this.cleaning = node.cleaning();
        this.intervalCleaning = cleaning == null ? node.intervalCleaning() : null;
        this.watermarks = watermarks;
        if (cleaning != null) {
            left.cleanBy(node.leftKeys()[cleaning.keyIndex()]);
            right.cleanBy(node.rightKeys()[cleaning.keyIndex()]);
        }
        if (intervalCleaning != null && intervalCleaning.cleansLeft()) {
            left.cleanBy(intervalCleaning.leftColumn());
        }
        if (intervalCleaning != null && intervalCleaning.cleansRight()) {
            right.cleanBy(intervalCleaning.rightColumn());
        }
    }

    /** Which left rows are the actor's: those its input's distribution places in {@code vnodes}. */
    private static OwnedRows leftOwner(StreamNode left, int[] vnodes) {
        int[] columns = left.distribution().keys();
        List<DataType> types = Arrays.stream(columns)
                .mapToObj(c -> left.fields().get(c).type())
                .toList();
        return new OwnedRows(columns, types, vnodes);
    }

    /** Probing one side's table with the other side's key values is only right when both encode alike. */
    private static void requireSameKeyEncoding(List<DataType> l, List<DataType> r) {
        for (int i = 0; i < l.size(); i++) {
            if (encodingClass(l.get(i).kind()) != encodingClass(r.get(i).kind())) {
                throw new IllegalArgumentException("join key " + i + " compares " + l.get(i) + " with " + r.get(i)
                        + "; the planner must cast both to one type");
            }
        }
    }

    private static TypeKind encodingClass(TypeKind kind) {
        return kind == TypeKind.VARCHAR ? TypeKind.TEXT : kind;
    }

    @Override
    public void onChunk(int input, Chunk chunk, Output out) {
        boolean fromLeft = switch (input) {
            case 0 -> true;
            case 1 -> false;
            default -> throw new IllegalArgumentException("a join has inputs 0 and 1, not " + input);
        };
        JoinSide side = fromLeft ? left : right;
        JoinSide other = fromLeft ? right : left;
        side.tookRows(chunk.size());
        other.otherTookRows();
        // a snapshot's rows carry their stored bytes: a side storing rows as its upstream does keeps
        // those instead of encoding each row again
        boolean stored = chunk.layout() != null && side.storesAs(chunk.layout());
        int n = chunk.size();
        boolean probedFirst = other.isHeld();
        if (probedFirst) {
            probeHeld(side, other, chunk);
        }
        for (int i = 0; i < n; i++) {
            apply(
                    fromLeft,
                    side,
                    other,
                    chunk.op(i),
                    chunk.row(i),
                    stored ? chunk.storedValue(i) : null,
                    probedFirst ? probed[i] : null,
                    out);
        }
        if (probedFirst) {
            Arrays.fill(probed, 0, n, null);
            Arrays.fill(probedRows, 0, n, null);
        }
    }

    /**
     * Finds every row's bucket of {@code other}, a held side, in passes of lookups alone, into
     * {@link #probed}. Each lookup of a dimension's tens of thousands of keys misses the cache
     * several times, each load depending on the one before (slot, entry, bucket, its rows), but on
     * no other row's. So the lookups go in stages, one pass over the chunk each: the entries' ids
     * (the slots' loads, between the rows' decoding and key encoding), then their buckets, then
     * the buckets' first rows. A pass of independent loads lets the CPU overlap the misses of many
     * rows, where one pass of whole lookups overlapped those of one or two (async-profiler of
     * {@code bench backfill}'s join: {@code heldBucket} and {@code ByteKeyMap.find} were 28% of the
     * join actors' samples). A held side's cache is neither filled nor evicted while the other
     * side's chunk is applied (its misses answer "no rows", and only the degrees of its rows
     * change, in the buckets found here), so the buckets stay the ones a lookup in {@link #apply}
     * would find.
     */
    private void probeHeld(JoinSide side, JoinSide other, Chunk chunk) {
        int n = chunk.size();
        if (probed.length < n) {
            probed = new JoinBucket[n];
            probedRows = new Object[n][];
            probedEntries = new int[n];
        }
        for (int i = 0; i < n; i++) {
            Object[] row = chunk.row(i);
            if (side.canMatch(row, nullSafe)) {
                side.encodeJoinKey(row, keyBuffer);
                probedEntries[i] = other.heldEntry(keyBuffer);
            } else {
                probedEntries[i] = CANNOT_MATCH;
            }
        }
        for (int i = 0; i < n; i++) {
            int entry = probedEntries[i];
            if (entry != CANNOT_MATCH) {
                probed[i] = other.heldBucketOf(entry);
            }
        }
        for (int i = 0; i < n; i++) {
            JoinBucket bucket = probed[i];
            // loaded here, where its miss overlaps the other rows'; kept so the load stays
            probedRows[i] = bucket != null && bucket.limit() > 0 ? bucket.values(0) : null;
        }
    }

    /**
     * Applies one change; {@code stored} is the row's stored value when the side keeps it as is, else
     * null; {@code probe} the other side's bucket of the row's join key when {@link #probeHeld} found
     * it, else null.
     */
    private void apply(
            boolean fromLeft,
            JoinSide side,
            JoinSide other,
            Op op,
            Object[] row,
            byte[] stored,
            JoinBucket probe,
            Output out) {
        if (!side.canMatch(row, nullSafe)) {
            if (side.padded()) {
                out.emit(op, pad(row, fromLeft));
            }
            return;
        }
        side.encodeJoinKey(row, keyBuffer);
        long degree = 0;
        JoinBucket bucket = probe != null ? probe : other.bucket(keyBuffer, row, side.keyColumns());
        int limit = bucket.limit();
        for (int m = 0; m < limit; m++) {
            Object[] match = bucket.values(m);
            if (match == null) {
                continue;
            }
            Object[] joined = fromLeft ? concat(row, match) : concat(match, row);
            if (condition != null && !Boolean.TRUE.equals(condition.eval(joined))) {
                continue;
            }
            degree++;
            if (op == Op.INSERT) {
                if (other.padded()) {
                    long matches = bucket.degree(m);
                    if (matches == 0) {
                        out.emit(Op.DELETE, pad(match, !fromLeft));
                    }
                    bucket.setDegree(m, matches + 1);
                }
                out.emit(Op.INSERT, joined);
            } else {
                out.emit(Op.DELETE, joined);
                if (other.padded()) {
                    long matches = bucket.degree(m) - 1;
                    bucket.setDegree(m, matches);
                    if (matches == 0) {
                        out.emit(Op.INSERT, pad(match, !fromLeft));
                    }
                }
            }
            if (other.padded()) {
                other.writeDegree(match, bucket.degree(m));
            }
        }
        // The row's own degree is its matches just counted: the other side's rows are current.
        if (side.padded() && degree == 0) {
            out.emit(op, pad(row, fromLeft));
        }
        if (op == Op.INSERT) {
            side.insert(keyBuffer, row, degree, stored);
        } else {
            side.delete(keyBuffer, row);
        }
    }

    private Object[] concat(Object[] l, Object[] r) {
        Object[] out = Arrays.copyOf(l, outputWidth);
        System.arraycopy(r, 0, out, l.length, r.length);
        return out;
    }

    /** {@code row} with NULLs for the other side's columns. */
    private Object[] pad(Object[] row, boolean fromLeft) {
        if (fromLeft) {
            return Arrays.copyOf(row, outputWidth);
        }
        Object[] out = new Object[outputWidth];
        System.arraycopy(row, 0, out, left.width(), row.length);
        return out;
    }

    @Override
    public void onBarrier(Barrier barrier, Output out, StateWrites writes) {
        if (cleaning != null || intervalCleaning != null) {
            if (ownedVnodes != null) {
                left.indexStored(ownedVnodes);
                right.indexStored(ownedVnodes);
                ownedVnodes = null;
            }
            if (barrier.checkpoint() == null) {
                // not while backfilling: a key's snapshot rows may still be on their way
                forgetFinishedKeys();
            }
        }
        left.flush(writes);
        right.flush(writes);
    }

    /**
     * Deletes the rows of both sides that no later change can match, unmatch or re-pad (see {@link
     * JoinCleaning} and {@link IntervalJoinCleaning}). The watermarks read are the ones every row
     * of this epoch was judged by.
     */
    private void forgetFinishedKeys() {
        int leftRelation = cleaning != null ? cleaning.leftRelationId() : intervalCleaning.leftRelationId();
        int rightRelation = cleaning != null ? cleaning.rightRelationId() : intervalCleaning.rightRelationId();
        long leftWatermark = watermarks.watermark(leftRelation);
        long rightWatermark = watermarks.watermark(rightRelation);
        if (leftWatermark == Long.MIN_VALUE || rightWatermark == Long.MIN_VALUE) {
            return;
        }
        if (cleaning != null) {
            long upTo = Math.min(leftWatermark - cleaning.leftLagMicros(), rightWatermark - cleaning.rightLagMicros());
            left.forgetUpTo(upTo);
            right.forgetUpTo(upTo);
            return;
        }
        if (intervalCleaning.cleansLeft()) {
            left.forgetUpTo(intervalCleaning.leftUpTo(leftWatermark, rightWatermark));
        }
        if (intervalCleaning.cleansRight()) {
            right.forgetUpTo(intervalCleaning.rightUpTo(leftWatermark, rightWatermark));
        }
    }
}

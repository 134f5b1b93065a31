package io.tributary.connector.datagen;

import io.tributary.common.types.DataType;
import java.math.BigDecimal;

/**
 * {@code fields.<col>.kind = 'random'}: row {@code s} gets a value drawn from a hash of
 * {@code (seed, s)} (SplitMix64), uniform over {@code [start, end]} for numbers, dates and
 * timestamps (whole seconds), a fair coin for booleans, and {@code length} letters and digits for
 * text. No state: the same seed and sequence number always give the same value.
 */
final class RandomField implements FieldGenerator {
    private static final char[] ALPHABET =
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".toCharArray();
    private static final double UNIT = 0x1.0p-53;

    private final DataType type;
    private final long seedHash;
    /** Bounds in the drawing unit: integers, unscaled numerics, days or seconds; doubles use the double bounds. */
    private final long low;

    private final long high;
    private final double lowDouble;
    private final double highDouble;
    private final int scale;
    private final int length;

    RandomField(
            DataType type, long seed, long low, long high, double lowDouble, double highDouble, int scale, int length) {
        this.type = type;
        this.seedHash = mix(seed);
        this.low = low;
        this.high = high;
        this.lowDouble = lowDouble;
        this.highDouble = highDouble;
        this.scale = scale;
        this.length = length;
    }

    @Override
    public long rowLimit() {
        return Long.MAX_VALUE;
    }

    @Override
    public Object value(long sequence) {
        long h = mix(seedHash ^ sequence);
        return switch (type.kind()) {
            case BOOLEAN -> (h & 1) == 1;
            case SMALLINT -> (short) between(h);
            case INTEGER, DATE -> (int) between(h);
            case BIGINT -> between(h);
            case TIMESTAMP, TIMESTAMPTZ -> between(h) * 1_000_000L;
            case REAL -> (float) (lowDouble + (h >>> 11) * UNIT * (highDouble - lowDouble));
            case DOUBLE -> lowDouble + (h >>> 11) * UNIT * (highDouble - lowDouble);
            case NUMERIC -> BigDecimal.valueOf(between(h), scale);
            case TEXT, VARCHAR -> text(h);
            default -> throw new IllegalStateException("no random values of type " + type);
        };
    }

    /** A value in {@code [low, high]} from the hash. */
    private long between(long h) {
        long range = high - low + 1;
        // range <= 0 only when [low, high] spans every long: then the hash itself is uniform
        return range <= 0 ? h : low + Long.remainderUnsigned(h, range);
    }

    private String text(long h) {
        char[] out = new char[length];
        long bits = h;
        for (int i = 0; i < length; i++) {
            if (i % 10 == 0 && i > 0) {
                bits = mix(h + i); // one hash gives ten characters of 62 (62^10 < 2^64)
            }
            out[i] = ALPHABET[(int) Long.remainderUnsigned(bits, ALPHABET.length)];
            bits = Long.divideUnsigned(bits, ALPHABET.length);
        }
        return new String(out);
    }

    /** SplitMix64's finalizer: a bijection on longs that spreads every input bit over the output. */
    static long mix(long z) {
        z += 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}

package io.tributary.connector.files;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * A fixed-size fingerprint of a set of file names: their count and the first {@value #SUMS} power
 * sums of their hashes modulo the prime 2^61-1. It lets a reader that resumes from a compact
 * position ("every name up to X is finished") find out which names up to X in the directory were
 * not there when the position was taken: given the names present now, {@link #added} recovers
 * up to {@value #SUMS} added names exactly (the hashes of the added names are the roots of a
 * polynomial whose coefficients follow from the power-sum differences by Newton's identities), or
 * confirms that names were only removed. Not thread-safe.
 */
final class NameSetSketch {
    static final int SUMS = 8;
    private static final long P = (1L << 61) - 1;

    private long count;
    private final long[] sums;

    NameSetSketch() {
        this(0, new long[SUMS]);
    }

    NameSetSketch(long count, long[] sums) {
        this.count = count;
        this.sums = sums.clone();
    }

    long count() {
        return count;
    }

    long[] sums() {
        return sums.clone();
    }

    NameSetSketch copy() {
        return new NameSetSketch(count, sums);
    }

    void add(String name) {
        update(hash(name), 1);
    }

    void remove(String name) {
        update(hash(name), -1);
    }

    private void update(long h, int sign) {
        count += sign;
        long power = 1;
        for (int j = 0; j < SUMS; j++) {
            power = mul(power, h);
            sums[j] = sign > 0 ? add(sums[j], power) : sub(sums[j], power);
        }
    }

    static NameSetSketch of(Collection<String> names) {
        NameSetSketch s = new NameSetSketch();
        names.forEach(s::add);
        return s;
    }

    /**
     * The names of {@code present} that are not in the set this sketch describes, assuming the
     * set changed only by adding names or only by removing them (at most {@value #SUMS} either
     * way).
     *
     * @return the added names (empty when names were only removed, or nothing changed), or null
     *     when the difference cannot be decoded (names both added and removed, or too many)
     */
    List<String> added(Collection<String> present) {
        NameSetSketch now = of(present);
        long delta = now.count - count;
        if (Math.abs(delta) > SUMS) {
            return null;
        }
        long[] d = new long[SUMS + 1];
        for (int j = 1; j <= SUMS; j++) {
            d[j] = sub(now.sums[j - 1], sums[j - 1]);
        }
        // r = prod(1 - a t) / prod(1 - b t) over added a and removed b, as a power series:
        // log r = -sum d_j t^j / j, so i r_i = -sum_{j=1..i} d_j r_{i-j}
        long[] r = new long[SUMS + 1];
        r[0] = 1;
        for (int i = 1; i <= SUMS; i++) {
            long acc = 0;
            for (int j = 1; j <= i; j++) {
                acc = add(acc, mul(d[j], r[i - j]));
            }
            r[i] = mul(sub(0, acc), inverse(i));
        }
        if (delta >= 0) {
            int k = (int) delta;
            if (!zeroBeyond(r, k)) {
                return null;
            }
            // the added hashes are the roots of x^k r(1/x)
            List<String> added = new ArrayList<>();
            for (String name : present) {
                long h = hash(name);
                long v = 0;
                for (int i = 0; i <= k; i++) {
                    v = add(mul(v, h), r[i]);
                }
                if (v == 0) {
                    added.add(name);
                }
            }
            return added.size() == k ? added : null;
        }
        // only removals: 1/r = prod(1 - b t) is then a polynomial of degree -delta
        long[] inv = new long[SUMS + 1];
        inv[0] = 1;
        for (int i = 1; i <= SUMS; i++) {
            long acc = 0;
            for (int j = 1; j <= i; j++) {
                acc = add(acc, mul(r[j], inv[i - j]));
            }
            inv[i] = sub(0, acc);
        }
        return zeroBeyond(inv, (int) -delta) ? List.of() : null;
    }

    private static boolean zeroBeyond(long[] coefficients, int degree) {
        for (int i = degree + 1; i < coefficients.length; i++) {
            if (coefficients[i] != 0) {
                return false;
            }
        }
        return true;
    }

    /** A hash of the name in [1, P): FNV-1a over the UTF-8 bytes, then a 64-bit finalizer. */
    static long hash(String name) {
        long h = 0xcbf29ce484222325L;
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xff)) * 0x100000001b3L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        long m = Long.remainderUnsigned(h, P);
        return m == 0 ? 1 : m;
    }

    private static long add(long a, long b) {
        long s = a + b;
        return s >= P ? s - P : s;
    }

    private static long sub(long a, long b) {
        long s = a - b;
        return s < 0 ? s + P : s;
    }

    static long mul(long a, long b) {
        long lo = a * b;
        long hi = Math.multiplyHigh(a, b);
        // a*b = hi*2^64 + lo, and 2^61 = 1 (mod P)
        long r = (lo & P) + ((lo >>> 61) | (hi << 3));
        r = (r & P) + (r >>> 61);
        return r >= P ? r - P : r;
    }

    private static long inverse(long a) {
        long result = 1;
        long base = a;
        for (long e = P - 2; e > 0; e >>>= 1) {
            if ((e & 1) != 0) {
                result = mul(result, base);
            }
            base = mul(base, base);
        }
        return result;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NameSetSketch s && s.count == count && Arrays.equals(s.sums, sums);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(count) * 31 + Arrays.hashCode(sums);
    }
}

package io.tributary.common.codec;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** A growable byte array for building keys and rows without intermediate objects. Not thread-safe. */
public final class ByteWriter {
    private byte[] buf;
    private int len;

    public ByteWriter(int initialCapacity) {
        buf = new byte[Math.max(initialCapacity, 8)];
    }

    private void ensure(int extra) {
        if (len + extra > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + extra));
        }
    }

    public ByteWriter put(int b) {
        ensure(1);
        buf[len++] = (byte) b;
        return this;
    }

    public ByteWriter putShort(int v) {
        ensure(2);
        buf[len++] = (byte) (v >>> 8);
        buf[len++] = (byte) v;
        return this;
    }

    public ByteWriter putInt(int v) {
        ensure(4);
        buf[len++] = (byte) (v >>> 24);
        buf[len++] = (byte) (v >>> 16);
        buf[len++] = (byte) (v >>> 8);
        buf[len++] = (byte) v;
        return this;
    }

    public ByteWriter putLong(long v) {
        ensure(8);
        for (int shift = 56; shift >= 0; shift -= 8) {
            buf[len++] = (byte) (v >>> shift);
        }
        return this;
    }

    public ByteWriter putBytes(byte[] b) {
        ensure(b.length);
        System.arraycopy(b, 0, buf, len, b.length);
        len += b.length;
        return this;
    }

    /** Appends {@code n} zero bytes, as room to {@link #set} later. */
    public ByteWriter skip(int n) {
        ensure(n);
        Arrays.fill(buf, len, len + n, (byte) 0);
        len += n;
        return this;
    }

    /** Unsigned LEB128. */
    public ByteWriter putVarInt(int v) {
        while ((v & ~0x7f) != 0) {
            put((v & 0x7f) | 0x80);
            v >>>= 7;
        }
        return put(v);
    }

    /**
     * Appends the number of {@code s}'s UTF-8 bytes ({@link #putVarInt}) and then those bytes.
     * ASCII text, which most stored strings are, is copied char by char: {@link String#getBytes}
     * allocated an array per value, a tenth of what a join backfill's actors allocated.
     */
    public ByteWriter putUtf8WithLength(String s) {
        int start = len;
        int n = s.length();
        putVarInt(n);
        ensure(n);
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                // not ASCII: its UTF-8 length differs from its length in chars
                len = start;
                byte[] b = s.getBytes(StandardCharsets.UTF_8);
                return putVarInt(b.length).putBytes(b);
            }
            buf[len++] = (byte) c;
        }
        return this;
    }

    /** Overwrites the byte at {@code pos} (below {@link #length()}). */
    public ByteWriter set(int pos, int b) {
        if (pos >= len) {
            throw new IndexOutOfBoundsException(pos);
        }
        buf[pos] = (byte) b;
        return this;
    }

    /** Inverts every bit of the bytes from {@code from} on: turns an ascending memcomparable encoding descending. */
    public ByteWriter invert(int from) {
        for (int i = from; i < len; i++) {
            buf[i] = (byte) ~buf[i];
        }
        return this;
    }

    public int length() {
        return len;
    }

    public void reset() {
        len = 0;
    }

    /**
     * The buffer itself, valid in {@code [0, length())} until the next write or reset: for a
     * caller that only reads the bytes (hashes them), so it need not copy them.
     */
    public byte[] array() {
        return buf;
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(buf, len);
    }
}

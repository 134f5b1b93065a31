package io.tributary.common.codec;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Splits lines of PostgreSQL's COPY text format into fields, in UTF-8 bytes and without making a
 * String per line or field: fields are delimiter-separated, a backslash escapes the next byte
 * ({@code \n}, {@code \t}, {@code \r}, {@code \b}, {@code \f}, {@code \v} name control characters,
 * any other byte stands for itself), and an unescaped field equal to the NULL string is NULL. A
 * backslash at the end of the line is kept as it is. With the default NULL string {@code \N}, the
 * two bytes {@code \N} are kept as they are, so that a field made of exactly them is NULL.
 *
 * <p>The delimiter and the NULL string's bytes are compared byte for byte; the delimiter must be
 * one ASCII character, which never matches inside a multi-byte UTF-8 character.
 *
 * <p>After {@link #split}, field {@code i} is {@link #bytes()}{@code [start(i), start(i) +
 * length(i))}, or NULL when {@link #isNull} says so. The buffers are reused by the next split. One
 * thread at a time (one per COPY).
 */
public final class CopyTextTokenizer {
    private final byte delimiter;
    private final byte[] nullBytes;
    private final boolean backslashN;

    private byte[] out = new byte[256];
    private int[] starts = new int[16];
    private int[] lengths = new int[16];
    private boolean[] nulls = new boolean[16];
    private int fields;

    /**
     * @param delimiter an ASCII character
     * @param nullString the text that means NULL
     */
    public CopyTextTokenizer(char delimiter, String nullString) {
        if (delimiter >= 0x80) {
            throw new IllegalArgumentException("delimiter must be ASCII: " + delimiter);
        }
        this.delimiter = (byte) delimiter;
        this.nullBytes = nullString.getBytes(StandardCharsets.UTF_8);
        this.backslashN = nullString.equals("\\N");
    }

    /**
     * Splits {@code line[from, to)} (without its line terminator); returns the number of fields. An
     * empty line is one empty field.
     */
    public int split(byte[] line, int from, int to) {
        if (out.length < to - from) {
            out = new byte[Math.max(out.length * 2, to - from)];
        }
        fields = 0;
        int o = 0;
        int fieldStart = 0;
        boolean escaped = false;
        for (int i = from; i < to; i++) {
            byte c = line[i];
            if (c == delimiter) {
                endField(fieldStart, o - fieldStart, escaped);
                fieldStart = o;
                escaped = false;
            } else if (c == '\\' && i + 1 < to) {
                byte e = line[++i];
                if (e == 'N' && backslashN) {
                    out[o++] = '\\';
                    out[o++] = 'N';
                    continue;
                }
                escaped = true;
                out[o++] = switch (e) {
                    case 'n' -> '\n';
                    case 't' -> '\t';
                    case 'r' -> '\r';
                    case 'b' -> '\b';
                    case 'f' -> '\f';
                    case 'v' -> 0x0b;
                    default -> e;
                };
            } else {
                out[o++] = c;
            }
        }
        endField(fieldStart, o - fieldStart, escaped);
        return fields;
    }

    private void endField(int start, int length, boolean escaped) {
        if (fields == starts.length) {
            starts = Arrays.copyOf(starts, fields * 2);
            lengths = Arrays.copyOf(lengths, fields * 2);
            nulls = Arrays.copyOf(nulls, fields * 2);
        }
        starts[fields] = start;
        lengths[fields] = length;
        nulls[fields] = !escaped && Arrays.equals(out, start, start + length, nullBytes, 0, nullBytes.length);
        fields++;
    }

    /** The buffer holding the fields of the last split. */
    public byte[] bytes() {
        return out;
    }

    public int start(int field) {
        return starts[field];
    }

    public int length(int field) {
        return lengths[field];
    }

    public boolean isNull(int field) {
        return nulls[field];
    }
}

package io.tributary.common.codec;

import io.tributary.common.types.DataType;
import io.tributary.common.types.Interval;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Memcomparable encoding: for values of the same types, unsigned lexicographic order of the encoded
 * bytes equals SQL order (NULL first). This is what makes "resume after key k" a RocksDB seek.
 * Encodings are part of the on-disk format. Stateless and thread-safe.
 */
public final class KeyCodec {
    private static final int NULL = 0x00;
    private static final int NOT_NULL = 0x01;

    private KeyCodec() {}

    /** Appends the encodings of {@code row[columns[i]]} for each i, typed by {@code types.get(i)}. */
    public static void encode(ByteWriter out, List<DataType> types, Object[] row, int[] columns) {
        for (int i = 0; i < columns.length; i++) {
            encodeValue(out, types.get(i), row[columns[i]]);
        }
    }

    public static void encodeValue(ByteWriter out, DataType type, Object value) {
        if (value == null) {
            out.put(NULL);
            return;
        }
        out.put(NOT_NULL);
        switch (type.kind()) {
            case BOOLEAN -> out.put(((Boolean) value) ? 1 : 0);
            case SMALLINT -> out.putShort(((Short) value) ^ 0x8000);
            case INTEGER, DATE -> out.putInt(((Integer) value) ^ Integer.MIN_VALUE);
            case BIGINT, TIME, TIMESTAMP, TIMESTAMPTZ -> out.putLong(((Long) value) ^ Long.MIN_VALUE);
            case REAL -> {
                // +0.0 instead of -0.0: SQL holds them equal, so their keys must be equal
                int bits = Float.floatToIntBits((Float) value + 0.0f);
                out.putInt(bits < 0 ? ~bits : bits ^ Integer.MIN_VALUE);
            }
            case DOUBLE -> {
                long bits = Double.doubleToLongBits((Double) value + 0.0d);
                out.putLong(bits < 0 ? ~bits : bits ^ Long.MIN_VALUE);
            }
            case NUMERIC -> encodeNumeric(out, (BigDecimal) value);
            case VARCHAR, TEXT -> encodeBytes(out, ((String) value).getBytes(StandardCharsets.UTF_8));
            // PostgreSQL compares character(n) values without their trailing blanks (spaces only: a
            // trailing tab or newline counts)
            case BPCHAR ->
                encodeBytes(out, withoutTrailingBlanks((String) value).getBytes(StandardCharsets.UTF_8));
            case ARRAY -> {
                // each element behind a 0x01 marker (NULL elements first), 0x00 after the last, so a
                // prefix sorts before the longer array, as PostgreSQL orders arrays
                List<?> elements = (List<?>) value;
                for (int i = 0; i < elements.size(); i++) {
                    out.put(0x01);
                    encodeValue(out, type.element(), elements.get(i));
                }
                out.put(0x00);
            }
            // jsonb keys by their normalised text: equal values have equal texts
            case JSON, JSONB -> encodeBytes(out, value.toString().getBytes(StandardCharsets.UTF_8));
            case BYTEA -> encodeBytes(out, (byte[]) value);
            case INTERVAL -> {
                // PostgreSQL compares intervals by length with 30-day months: '1 mon' = '30 days'
                Interval iv = (Interval) value;
                out.putLong(iv.normalizedDays() ^ Long.MIN_VALUE);
                out.putLong(iv.microsOfDay() ^ Long.MIN_VALUE);
            }
            case UUID -> {
                // the raw 16 bytes, big-endian: their unsigned order is PostgreSQL's uuid order
                java.util.UUID u = (java.util.UUID) value;
                out.putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits());
            }
        }
    }

    /** 0x00 bytes are escaped as 0x00 0xFF and the value ends with 0x00 0x01, so prefixes sort first. */
    private static void encodeBytes(ByteWriter out, byte[] bytes) {
        for (byte b : bytes) {
            out.put(b);
            if (b == 0) {
                out.put(0xff);
            }
        }
        out.put(0x00).put(0x01);
    }

    /**
     * Sign byte (0 negative, 1 zero, 2 positive), then the decimal exponent and the digits 1..10
     * ended by 0; for negative numbers exponent and digits are bit-inverted so larger magnitudes
     * sort first.
     */
    /** {@code s} without its trailing spaces, as PostgreSQL's bpchar comparison ignores them. */
    private static String withoutTrailingBlanks(String s) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == ' ') {
            end--;
        }
        return end == s.length() ? s : s.substring(0, end);
    }

    private static void encodeNumeric(ByteWriter out, BigDecimal v) {
        int sign = v.signum();
        if (sign == 0) {
            out.put(1);
            return;
        }
        int mask = sign < 0 ? 0xff : 0;
        out.put(sign < 0 ? 0 : 2);
        if (v.precision() <= MAX_LONG_DIGITS) {
            encodeCompactNumeric(out, v, mask);
            return;
        }
        BigDecimal d = v.abs().stripTrailingZeros();
        String digits = d.unscaledValue().toString();
        putExponent(out, digits.length() - d.scale(), mask);
        for (int i = 0; i < digits.length(); i++) {
            out.put((digits.charAt(i) - '0' + 1) ^ mask);
        }
        out.put(mask);
    }

    /** Digits any long holds. */
    private static final int MAX_LONG_DIGITS = 18;

    private static final long[] POWERS_OF_TEN = new long[MAX_LONG_DIGITS + 1];

    static {
        POWERS_OF_TEN[0] = 1;
        for (int i = 1; i < POWERS_OF_TEN.length; i++) {
            POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
        }
    }

    /**
     * {@link #encodeNumeric}'s exponent and digits for a non-zero value of at most 18 digits, in
     * long arithmetic: the same bytes, without the strings and BigIntegers that made NUMERIC keys
     * the costliest part of aggregating over them.
     */
    private static void encodeCompactNumeric(ByteWriter out, BigDecimal v, int mask) {
        long unscaled = Math.abs(v.scaleByPowerOfTen(v.scale()).longValue());
        int scale = v.scale();
        while (unscaled % 10 == 0) {
            unscaled /= 10;
            scale--;
        }
        int digits = 1;
        while (digits < MAX_LONG_DIGITS && unscaled >= POWERS_OF_TEN[digits]) {
            digits++;
        }
        putExponent(out, digits - scale, mask);
        for (int i = digits - 1; i >= 0; i--) {
            out.put((int) (unscaled / POWERS_OF_TEN[i] % 10 + 1) ^ mask);
        }
        out.put(mask);
    }

    private static void putExponent(ByteWriter out, int exponent, int mask) {
        int e = exponent ^ Integer.MIN_VALUE;
        out.putInt(mask != 0 ? ~e : e);
    }
}

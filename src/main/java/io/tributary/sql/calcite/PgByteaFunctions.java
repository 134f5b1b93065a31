package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Locale;
import org.apache.calcite.avatica.util.ByteString;

/**
 * PostgreSQL's bytea functions Calcite lacks ({@code encode}, {@code decode}, {@code get_byte}, the {@code sha2} digests,
 * {@code convert_to}), registered as schema functions by {@link CatalogSchema} under their method
 * names and called by reflection from the code Calcite generates, in queries and in materialized
 * views alike. NULL in gives NULL out. Errors carry PostgreSQL's SQLSTATEs. Pure functions, safe
 * on any thread.
 */
public final class PgByteaFunctions {
    /** PostgreSQL's base64 encoder breaks its output into lines of this many characters. */
    private static final int BASE64_LINE = 76;

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private PgByteaFunctions() {}

    /** {@code encode(bytea, format)}: {@code hex}, {@code base64} (76-character lines) or {@code escape} text. */
    public static String encode(ByteString data, String format) {
        if (data == null || format == null) {
            return null;
        }
        byte[] bytes = data.getBytes();
        return switch (format.toLowerCase(Locale.ROOT)) {
            case "hex" -> hex(bytes);
            case "base64" -> base64(bytes);
            case "escape" -> escape(bytes);
            default -> throw unknownEncoding(format);
        };
    }

    /** {@code sha224(bytea)}: the SHA-224 digest of {@code data}. */
    public static ByteString sha224(ByteString data) {
        return digest("SHA-224", data);
    }

    /** {@code sha256(bytea)}: the SHA-256 digest of {@code data}. */
    public static ByteString sha256(ByteString data) {
        return digest("SHA-256", data);
    }

    /** {@code sha384(bytea)}: the SHA-384 digest of {@code data}. */
    public static ByteString sha384(ByteString data) {
        return digest("SHA-384", data);
    }

    /** {@code sha512(bytea)}: the SHA-512 digest of {@code data}. */
    public static ByteString sha512(ByteString data) {
        return digest("SHA-512", data);
    }

    private static ByteString digest(String algorithm, ByteString data) {
        if (data == null) {
            return null;
        }
        try {
            return new ByteString(MessageDigest.getInstance(algorithm).digest(data.getBytes()));
        } catch (NoSuchAlgorithmException e) {
            // every Java platform must provide the SHA-2 family
            throw new IllegalStateException(algorithm + " is missing from this Java runtime", e);
        }
    }

    /** {@code decode(text, format)}: the bytes {@code text} spells in {@code hex}, {@code base64} or {@code escape}. */
    public static ByteString decode(String text, String format) {
        if (text == null || format == null) {
            return null;
        }
        return new ByteString(
                switch (format.toLowerCase(Locale.ROOT)) {
                    case "hex" -> unhex(text);
                    case "base64" -> unbase64(text);
                    case "escape" -> unescape(text);
                    default -> throw unknownEncoding(format);
                });
    }

    /** {@code get_byte(bytea, n)}: byte {@code n} (0-based) as an integer; 2202E outside the value. */
    public static Integer get_byte(ByteString data, Integer n) {
        if (data == null || n == null) {
            return null;
        }
        if (n < 0 || n >= data.length()) {
            throw new TributaryException(
                    SqlState.ARRAY_SUBSCRIPT_ERROR, "index " + n + " out of valid range, 0.." + (data.length() - 1));
        }
        return data.byteAt(n) & 0xff;
    }

    /** {@code convert_to(text, encoding)}: the text's bytes in UTF8 or LATIN1. */
    public static ByteString convert_to(String text, String encoding) {
        if (text == null || encoding == null) {
            return null;
        }
        String name = encoding.toUpperCase(Locale.ROOT).replace("-", "").replace("_", "");
        return switch (name) {
            case "UTF8", "UNICODE" -> new ByteString(text.getBytes(StandardCharsets.UTF_8));
            case "LATIN1", "ISO88591" -> new ByteString(latin1(text));
            default ->
                throw new TributaryException(
                        SqlState.INVALID_PARAMETER_VALUE, "invalid destination encoding name \"" + encoding + "\"");
        };
    }

    private static byte[] latin1(String text) {
        byte[] out = new byte[text.length()];
        for (int i = 0; i < text.length(); i++) {
            int c = text.codePointAt(i);
            if (c > 0xff) {
                throw new TributaryException(
                        SqlState.UNTRANSLATABLE_CHARACTER,
                        "character with byte sequence " + utf8Bytes(c) + " in encoding \"UTF8\" has no equivalent in"
                                + " encoding \"LATIN1\"");
            }
            out[i] = (byte) c;
        }
        return out;
    }

    private static String utf8Bytes(int codePoint) {
        byte[] bytes = new String(Character.toChars(codePoint)).getBytes(StandardCharsets.UTF_8);
        StringBuilder out = new StringBuilder();
        for (byte b : bytes) {
            out.append(out.isEmpty() ? "" : " ")
                    .append("0x")
                    .append(HEX[(b >> 4) & 0xf])
                    .append(HEX[b & 0xf]);
        }
        return out.toString();
    }

    private static String hex(byte[] bytes) {
        char[] out = new char[bytes.length * 2];
        for (int i = 0; i < bytes.length; i++) {
            out[2 * i] = HEX[(bytes[i] >> 4) & 0xf];
            out[2 * i + 1] = HEX[bytes[i] & 0xf];
        }
        return new String(out);
    }

    private static String base64(byte[] bytes) {
        String flat = Base64.getEncoder().encodeToString(bytes);
        if (flat.length() <= BASE64_LINE) {
            return flat;
        }
        StringBuilder out = new StringBuilder(flat.length() + flat.length() / BASE64_LINE);
        for (int at = 0; at < flat.length(); at += BASE64_LINE) {
            if (at > 0) {
                out.append('\n');
            }
            out.append(flat, at, Math.min(at + BASE64_LINE, flat.length()));
        }
        return out.toString();
    }

    /** PostgreSQL's escape format: a zero byte and bytes with the high bit as {@code \ooo}, a backslash doubled. */
    private static String escape(byte[] bytes) {
        StringBuilder out = new StringBuilder(bytes.length);
        for (byte b : bytes) {
            int v = b & 0xff;
            if (v == '\\') {
                out.append("\\\\");
            } else if (v == 0 || v >= 0x80) {
                out.append('\\')
                        .append((char) ('0' + (v >> 6)))
                        .append((char) ('0' + ((v >> 3) & 7)))
                        .append((char) ('0' + (v & 7)));
            } else {
                out.append((char) v);
            }
        }
        return out.toString();
    }

    /** Hex digits, whitespace between pairs allowed as PostgreSQL's {@code hex_decode} allows it. */
    private static byte[] unhex(String text) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(text.length() / 2);
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                i++;
                continue;
            }
            int high = hexDigit(c);
            if (i + 1 >= text.length()) {
                throw new TributaryException(
                        SqlState.INVALID_PARAMETER_VALUE, "invalid hexadecimal data: odd number of digits");
            }
            out.write((high << 4) | hexDigit(text.charAt(i + 1)));
            i += 2;
        }
        return out.toByteArray();
    }

    private static int hexDigit(char c) {
        int v = Character.digit(c, 16);
        if (v < 0 || c > 'f') {
            throw new TributaryException(SqlState.INVALID_PARAMETER_VALUE, "invalid hexadecimal digit: \"" + c + "\"");
        }
        return v;
    }

    private static byte[] unbase64(String text) {
        StringBuilder compact = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                compact.append(c);
            }
        }
        try {
            return Base64.getDecoder().decode(compact.toString());
        } catch (IllegalArgumentException e) {
            throw new TributaryException(SqlState.INVALID_PARAMETER_VALUE, "invalid base64 end sequence");
        }
    }

    /** The escape format back: {@code \\} is a backslash, {@code \ooo} an octal byte, other characters their UTF-8 bytes. */
    private static byte[] unescape(String text) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c != '\\') {
                int cp = text.codePointAt(i);
                byte[] b = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8);
                out.write(b, 0, b.length);
                i += Character.charCount(cp) - 1;
            } else if (i + 1 < text.length() && text.charAt(i + 1) == '\\') {
                out.write('\\');
                i++;
            } else if (i + 3 < text.length()
                    && isOctal(text.charAt(i + 1), '3')
                    && isOctal(text.charAt(i + 2), '7')
                    && isOctal(text.charAt(i + 3), '7')) {
                out.write(((text.charAt(i + 1) - '0') << 6)
                        | ((text.charAt(i + 2) - '0') << 3)
                        | (text.charAt(i + 3) - '0'));
                i += 3;
            } else {
                throw new TributaryException(
                        SqlState.INVALID_TEXT_REPRESENTATION, "invalid input syntax for type bytea");
            }
        }
        return out.toByteArray();
    }

    private static boolean isOctal(char c, char max) {
        return c >= '0' && c <= max;
    }

    private static TributaryException unknownEncoding(String format) {
        return new TributaryException(SqlState.INVALID_PARAMETER_VALUE, "unrecognized encoding: \"" + format + "\"");
    }
}

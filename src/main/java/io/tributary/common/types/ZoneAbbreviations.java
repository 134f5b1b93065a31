package io.tributary.common.types;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * PostgreSQL's default set of time zone abbreviations ({@code timezone_abbreviations =
 * 'Default'}), which date/time input ({@code '2024-01-01 12:00 PST'}), {@code AT TIME ZONE} and
 * {@code timezone(zone, value)} read before zone names. The set is not the JDK's ({@code IST} is
 * Israel's +02, {@code UT}, {@code ZULU} and {@code UCT} are UTC, {@code WEST} is unknown): it is
 * read from the resource {@code zone-abbreviations.txt}, PostgreSQL 14's {@code Default} file with
 * the meanings its tzdata gives the abbreviations it looks up in a zone. Loaded once on first use;
 * thread-safe.
 */
final class ZoneAbbreviations {
    private static final String RESOURCE = "zone-abbreviations.txt";

    private ZoneAbbreviations() {}

    /** The abbreviations by lower-case name. */
    private static final class Holder {
        static final Map<String, ZoneAbbreviation> ABBREVIATIONS = load();
    }

    /** The abbreviation {@code lowerCaseName} names; null when it names none. */
    static ZoneAbbreviation find(String lowerCaseName) {
        return Holder.ABBREVIATIONS.get(lowerCaseName);
    }

    private static Map<String, ZoneAbbreviation> load() {
        Map<String, ZoneAbbreviation> out = new HashMap<>();
        try (InputStream in = ZoneAbbreviations.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("resource " + RESOURCE + " is missing from the jar");
            }
            BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    String[] fields = line.trim().split(" +");
                    out.put(fields[0], abbreviation(fields));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Map.copyOf(out);
    }

    /** A line's abbreviation: {@code name offset}, or {@code name zone [start offset]...}. */
    private static ZoneAbbreviation abbreviation(String[] fields) {
        char first = fields[1].charAt(0);
        if (first == '-' || Character.isDigit(first)) {
            ZoneOffset offset = ZoneOffset.ofTotalSeconds(Integer.parseInt(fields[1]));
            return new ZoneAbbreviation(
                    new PgTimeZone(fields[0].toUpperCase(Locale.ROOT), offset), new long[0], new int[0]);
        }
        int meanings = (fields.length - 2) / 2;
        long[] starts = new long[meanings];
        int[] offsets = new int[meanings];
        for (int i = 0; i < meanings; i++) {
            starts[i] = Long.parseLong(fields[2 + 2 * i]);
            offsets[i] = Integer.parseInt(fields[3 + 2 * i]);
        }
        return new ZoneAbbreviation(new PgTimeZone(fields[1], ZoneId.of(fields[1])), starts, offsets);
    }
}

package io.tributary.common.types;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * Time zone abbreviations in date/time input ({@code '2024-01-01 12:00 PST'}) as PostgreSQL reads
 * them: each names a fixed offset from UTC, whatever the date ({@code PST} is -08 in July too,
 * {@code PDT} -07 in January). The set is PostgreSQL's default one ({@code IST} is Israel's +02,
 * {@code UT}, {@code ZULU} and {@code UCT} are UTC, {@code WEST} is unknown), read from the
 * resource {@code zone-abbreviations.txt}, which lists PostgreSQL 14's {@code pg_timezone_abbrevs};
 * the JDK's zone names are a different set. An abbreviation PostgreSQL looks up in a zone
 * ({@code MSK}) has the offset its zone had when listed, whatever the date. Loaded once on first use;
 * thread-safe. Called by {@link PgDateTimeInput}.
 */
final class ZoneAbbreviations {
    private static final String RESOURCE = "zone-abbreviations.txt";

    private ZoneAbbreviations() {}

    /** Offsets in seconds east of UTC by lower-case abbreviation. */
    private static final class Holder {
        static final Map<String, Integer> OFFSETS = load();
    }

    /** The offset {@code lowerCaseName} stands for, in seconds east of UTC; null when it names none. */
    static Integer offsetSeconds(String lowerCaseName) {
        return Holder.OFFSETS.get(lowerCaseName);
    }

    private static Map<String, Integer> load() {
        Map<String, Integer> out = new HashMap<>();
        try (InputStream in = ZoneAbbreviations.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("resource " + RESOURCE + " is missing from the jar");
            }
            BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                int space = line.indexOf(' ');
                out.put(
                        line.substring(0, space),
                        Integer.parseInt(line.substring(space + 1).trim()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Map.copyOf(out);
    }
}

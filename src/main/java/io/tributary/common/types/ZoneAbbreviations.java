package io.tributary.common.types;

import java.text.DateFormatSymbols;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TimeZone;

/**
 * Time zone abbreviations in date/time input ({@code '2024-01-01 12:00 PST'}) as PostgreSQL reads
 * them: each names a fixed offset from UTC, whatever the date ({@code PST} is -08 in July too,
 * {@code PDT} -07 in January). The offsets come from the JDK's zone data, not a table typed here:
 * an abbreviation the JDK gives as a zone's standard short name (US English) means that zone's
 * standard offset, as its daylight short name (in a zone with daylight saving) the standard offset
 * plus the saving. Where zones disagree ({@code PST} is also the Philippines' +08) the offset
 * most zone ids use wins, and on a tie the zone {@link ZoneId#SHORT_IDS} names for the
 * abbreviation; a tie it does not settle leaves the abbreviation unknown. This gives PostgreSQL's
 * default set for the common ones; {@code IST} is India's +05:30 here, Israel's +02 there. Built
 * once on first use; thread-safe. Called by {@link PgDateTimeInput}.
 */
final class ZoneAbbreviations {
    private ZoneAbbreviations() {}

    /** Offsets in seconds east of UTC by lower-case abbreviation. */
    private static final class Holder {
        static final Map<String, Integer> OFFSETS = build();
    }

    /** The offset {@code lowerCaseName} stands for, in seconds east of UTC; null when it names none or several. */
    static Integer offsetSeconds(String lowerCaseName) {
        return Holder.OFFSETS.get(lowerCaseName);
    }

    private static Map<String, Integer> build() {
        // per abbreviation, how many zone ids use it for each offset
        Map<String, Map<Integer, Integer>> candidates = new HashMap<>();
        for (String[] names : DateFormatSymbols.getInstance(Locale.US).getZoneStrings()) {
            TimeZone zone = TimeZone.getTimeZone(names[0]);
            int standard = zone.getRawOffset() / 1000;
            add(candidates, names[2], standard);
            if (zone.getDSTSavings() != 0) {
                add(candidates, names[4], standard + zone.getDSTSavings() / 1000);
            }
        }
        Map<String, Integer> out = new HashMap<>();
        candidates.forEach((name, zonesByOffset) -> {
            Integer offset = mostUsed(zonesByOffset);
            if (offset == null) {
                offset = preferred(name);
            }
            if (offset != null) {
                out.put(name, offset);
            }
        });
        return Map.copyOf(out);
    }

    private static void add(Map<String, Map<Integer, Integer>> candidates, String name, int offsetSeconds) {
        // only names of letters: "GMT+01:00" and the like are offsets, read as such by the input
        if (name != null && !name.isEmpty() && name.chars().allMatch(Character::isLetter)) {
            candidates
                    .computeIfAbsent(name.toLowerCase(Locale.ROOT), k -> new HashMap<>())
                    .merge(offsetSeconds, 1, Integer::sum);
        }
    }

    /** The offset more zone ids use than any other, or null on a tie. */
    private static Integer mostUsed(Map<Integer, Integer> zonesByOffset) {
        Integer best = null;
        int bestCount = 0;
        boolean tie = false;
        for (Map.Entry<Integer, Integer> e : zonesByOffset.entrySet()) {
            if (e.getValue() > bestCount) {
                best = e.getKey();
                bestCount = e.getValue();
                tie = false;
            } else if (e.getValue() == bestCount) {
                tie = true;
            }
        }
        return tie ? null : best;
    }

    /** The standard offset of the zone {@link ZoneId#SHORT_IDS} gives for an ambiguous abbreviation, or null. */
    private static Integer preferred(String lowerCaseName) {
        String id = ZoneId.SHORT_IDS.get(lowerCaseName.toUpperCase(Locale.ROOT));
        if (id == null || id.startsWith("+") || id.startsWith("-")) {
            return null;
        }
        return TimeZone.getTimeZone(id).getRawOffset() / 1000;
    }
}

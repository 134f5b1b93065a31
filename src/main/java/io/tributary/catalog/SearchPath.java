package io.tributary.catalog;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A session's {@code search_path} resolved against its database, with PostgreSQL's rules: the
 * setting is a comma-separated list of schema names (double quotes keep case and commas, unquoted
 * names fold to lower case), {@code $user} stands for the session's user, and names that are no
 * schema of the database are skipped without an error. {@code pg_catalog} is searched first when
 * the list does not name it. Immutable; made per statement on the session's thread.
 *
 * @param explicit the listed schemas that exist, in order, each once (what {@code
 *     current_schemas(false)} returns); its first is where unqualified names are created
 */
public record SearchPath(List<String> explicit) {
    /** The setting's default, as in PostgreSQL. */
    public static final String DEFAULT = "\"$user\", public";

    private static final String PG_CATALOG = "pg_catalog";

    /** Resolves {@code setting} for {@code user} in {@code catalog}'s database. */
    public static SearchPath resolve(Catalog catalog, String user, String setting) {
        List<String> explicit = new ArrayList<>();
        for (String name : names(setting == null ? DEFAULT : setting)) {
            String schema = name.equals("$user") ? user : name;
            if (schema != null && catalog.schemaExists(schema) && !explicit.contains(schema)) {
                explicit.add(schema);
            }
        }
        return new SearchPath(List.copyOf(explicit));
    }

    /**
     * What {@code current_schema()} returns: the first listed schema that exists, or null when
     * there is none (PostgreSQL's answer too).
     */
    public String current() {
        return explicit.isEmpty() ? null : explicit.get(0);
    }

    /** What {@code current_schemas(true)} returns: the implicit {@code pg_catalog} first, then the list. */
    public List<String> withImplicit() {
        if (explicit.contains(PG_CATALOG)) {
            return explicit;
        }
        List<String> all = new ArrayList<>();
        all.add(PG_CATALOG);
        all.addAll(explicit);
        return List.copyOf(all);
    }

    /**
     * Splits a list setting into names as PostgreSQL's {@code SplitIdentifierString} does:
     * whitespace around names is dropped, a quoted name keeps its text ({@code ""} is a quote), an
     * unquoted one folds to lower case. A malformed list (an empty name, an unclosed quote) yields
     * the names before the fault.
     */
    public static List<String> names(String setting) {
        List<String> names = new ArrayList<>();
        int i = 0;
        int n = setting.length();
        while (true) {
            while (i < n && Character.isWhitespace(setting.charAt(i))) {
                i++;
            }
            if (i >= n) {
                return names;
            }
            StringBuilder name = new StringBuilder();
            if (setting.charAt(i) == '"') {
                i++;
                while (true) {
                    if (i >= n) {
                        return names;
                    }
                    char c = setting.charAt(i++);
                    if (c == '"') {
                        if (i < n && setting.charAt(i) == '"') {
                            name.append('"');
                            i++;
                        } else {
                            break;
                        }
                    } else {
                        name.append(c);
                    }
                }
            } else {
                int start = i;
                while (i < n && setting.charAt(i) != ',' && !Character.isWhitespace(setting.charAt(i))) {
                    i++;
                }
                name.append(setting.substring(start, i).toLowerCase(Locale.ROOT));
            }
            while (i < n && Character.isWhitespace(setting.charAt(i))) {
                i++;
            }
            if (name.length() == 0) {
                return names;
            }
            names.add(name.toString());
            if (i >= n) {
                return names;
            }
            if (setting.charAt(i) != ',') {
                return names;
            }
            i++;
        }
    }

    /**
     * {@code name} as an element of a list setting: as it is when it is made of lower-case ASCII
     * letters, digits and {@code _} and does not start with a digit, else double-quoted, as
     * PostgreSQL's {@code quote_identifier} (which also quotes reserved key words; this does not).
     */
    public static String quoted(String name) {
        boolean plain = !name.isEmpty()
                && !(name.charAt(0) >= '0' && name.charAt(0) <= '9')
                && name.chars().allMatch(c -> (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_');
        return plain ? name : "\"" + name.replace("\"", "\"\"") + "\"";
    }
}

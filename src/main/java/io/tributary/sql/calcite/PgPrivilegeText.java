package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.Locale;
import java.util.Set;

/**
 * Checks the privilege text of PostgreSQL's {@code has_*_privilege} functions as PostgreSQL does:
 * a comma-separated list of the object kind's privilege names, any case, each optionally followed
 * by {@code WITH GRANT OPTION}; anything else is 22023. Stateless.
 */
final class PgPrivilegeText {
    /** Table privileges. */
    static final Set<String> TABLE =
            Set.of("select", "insert", "update", "delete", "truncate", "references", "trigger", "maintain");
    /** Schema privileges. */
    static final Set<String> SCHEMA = Set.of("create", "usage");
    /** Database privileges. */
    static final Set<String> DATABASE = Set.of("create", "connect", "temporary", "temp");

    private PgPrivilegeText() {}

    /** Throws 22023 unless {@code text} lists only privileges of {@code allowed}. */
    static void check(String text, Set<String> allowed) {
        for (String part : text.split(",", -1)) {
            String p = part.trim().toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
            if (p.endsWith(" with grant option")) {
                p = p.substring(0, p.length() - " with grant option".length()).trim();
            }
            if (!allowed.contains(p)) {
                throw new TributaryException(
                        SqlState.INVALID_PARAMETER_VALUE, "unrecognized privilege type: \"" + part.trim() + "\"");
            }
        }
    }
}

package io.tributary.server.session;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.sql.PreparedBody;
import io.tributary.sql.UtilityStatement;
import java.util.HashMap;
import java.util.Map;

/**
 * A session's SQL-level prepared statements ({@code PREPARE} / {@code EXECUTE} /
 * {@code DEALLOCATE}), by name, with PostgreSQL's errors. They live as long as the session (or
 * until DEALLOCATE); {@code DISCARD ALL} drops them. Session thread only.
 */
final class NamedStatements {
    private final Map<String, UtilityStatement.Prepare> byName = new HashMap<>();

    /** @throws TributaryException 42P05 when the name is taken */
    void add(UtilityStatement.Prepare prepared) {
        if (byName.containsKey(prepared.name())) {
            throw new TributaryException(
                    SqlState.DUPLICATE_PREPARED_STATEMENT,
                    "prepared statement \"" + prepared.name() + "\" already exists");
        }
        byName.put(prepared.name(), prepared);
    }

    /** Drops one statement, or all when {@code name} is null; 26000 for an unknown name. */
    void remove(String name) {
        if (name == null) {
            byName.clear();
        } else if (byName.remove(name) == null) {
            throw unknown(name);
        }
    }

    /** The text {@code execute} runs: the named statement with its arguments bound. */
    String bind(UtilityStatement.Execute execute) {
        UtilityStatement.Prepare prepared = byName.get(execute.name());
        if (prepared == null) {
            throw unknown(execute.name());
        }
        return PreparedBody.bind(prepared, execute.arguments());
    }

    private static TributaryException unknown(String name) {
        return new TributaryException(
                SqlState.INVALID_SQL_STATEMENT_NAME, "prepared statement \"" + name + "\" does not exist");
    }
}

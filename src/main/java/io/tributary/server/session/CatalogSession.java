package io.tributary.server.session;

import io.tributary.catalog.pg.PgSession;
import io.tributary.meta.write.Sequences;
import java.util.List;

/**
 * What {@code pg_catalog} shows of one session: its user, its current settings and its database's
 * sequences. Session thread only.
 */
final class CatalogSession implements PgSession {
    private final String user;
    private final SessionVariables variables;
    private final Sequences sequences;

    CatalogSession(String user, SessionVariables variables, Sequences sequences) {
        this.user = user == null || user.isEmpty() ? "root" : user;
        this.variables = variables;
        this.sequences = sequences;
    }

    @Override
    public long sequenceValue(int tableId, int column) {
        return sequences.current(tableId, column);
    }

    @Override
    public String user() {
        return user;
    }

    @Override
    public List<Setting> settings() {
        return variables.settings();
    }
}

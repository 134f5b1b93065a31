package io.tributary.server.session;

import io.tributary.catalog.pg.PgSession;
import java.util.List;

/** What {@code pg_catalog} shows of one session: its user and its current settings. Session thread only. */
final class CatalogSession implements PgSession {
    private final String user;
    private final SessionVariables variables;

    CatalogSession(String user, SessionVariables variables) {
        this.user = user == null || user.isEmpty() ? "root" : user;
        this.variables = variables;
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

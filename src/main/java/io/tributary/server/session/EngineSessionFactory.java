package io.tributary.server.session;

import io.tributary.catalog.Catalog;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.meta.Database;
import java.util.Map;

/** Opens {@link EngineSession}s on one {@link Database}; only database {@code dev} exists. */
public final class EngineSessionFactory implements SessionFactory {
    private final Database db;
    private final QueryLimits limits;

    /** Sessions with {@link QueryLimits#defaults()}. */
    public EngineSessionFactory(Database db) {
        this(db, QueryLimits.defaults());
    }

    public EngineSessionFactory(Database db, QueryLimits limits) {
        this.db = db;
        this.limits = limits;
    }

    @Override
    public Session open(String user, String database, Map<String, String> startupParameters) {
        if (database != null && !database.isEmpty() && !database.equals(Catalog.DATABASE)) {
            throw new TributaryException(SqlState.INVALID_CATALOG_NAME, "database \"" + database + "\" does not exist");
        }
        return new EngineSession(db, user, startupParameters, limits);
    }
}

package io.tributary.server.session;

import io.tributary.catalog.Catalog;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.meta.Cluster;
import io.tributary.meta.Database;
import java.util.Map;

/**
 * Opens {@link EngineSession}s, each on the database its startup packet names ({@code dev} when it
 * names none): any database of a {@link Cluster}, or the one {@link Database} it was made with.
 */
public final class EngineSessionFactory implements SessionFactory {
    private final Cluster cluster;
    private final Database db;
    private final QueryLimits limits;
    private final ActiveSessions sessions = new ActiveSessions();

    /** Sessions on one database, with {@link QueryLimits#defaults()}. */
    public EngineSessionFactory(Database db) {
        this(db, QueryLimits.defaults());
    }

    /** Sessions on one database ({@code dev}); CREATE and DROP DATABASE are refused (0A000). */
    public EngineSessionFactory(Database db, QueryLimits limits) {
        this.cluster = null;
        this.db = db;
        this.limits = limits;
    }

    /** Sessions on any database of {@code cluster}. */
    public EngineSessionFactory(Cluster cluster, QueryLimits limits) {
        this.cluster = cluster;
        this.db = null;
        this.limits = limits;
    }

    /** @throws TributaryException 3D000 when no database of that name exists */
    @Override
    public Session open(String user, String database, Map<String, String> startupParameters) {
        String name = database == null || database.isEmpty() ? Catalog.DATABASE : database;
        if (cluster == null) {
            if (!name.equals(Catalog.DATABASE)) {
                throw new TributaryException(SqlState.INVALID_CATALOG_NAME, "database \"" + name + "\" does not exist");
            }
            return new EngineSession(null, db, user, startupParameters, limits, sessions);
        }
        Database target = cluster.connect(name);
        try {
            return new EngineSession(cluster, target, user, startupParameters, limits, sessions);
        } catch (RuntimeException e) {
            cluster.disconnect(target);
            throw e;
        }
    }
}

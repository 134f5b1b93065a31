package io.tributary.server.session;

import java.util.Map;

/** Opens sessions for authenticated connections. Thread-safe. */
public interface SessionFactory {
    /**
     * @param startupParameters the StartupMessage parameters (user, database, application_name, ...)
     * @throws io.tributary.common.TributaryException e.g. 3D000 when the database does not exist
     */
    Session open(String user, String database, Map<String, String> startupParameters);
}

package io.tributary.connector.postgres;

import io.tributary.common.SqlState;
import io.tributary.connector.ConnectorException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import org.postgresql.PGProperty;

/**
 * Opens connections to the upstream PostgreSQL: plain ones for catalog queries and the snapshot,
 * and logical replication ones. Sessions run with TimeZone UTC so that timestamptz text carries a
 * {@code +00} offset the text parser applies. Stateless.
 */
final class PgConnections {
    /** The SQLSTATE for a source that cannot reach or log in to its upstream. */
    private static final int CONNECT_TIMEOUT_SECONDS = 10;

    private PgConnections() {}

    /**
     * A plain connection (auto-commit on).
     *
     * @throws ConnectorException 08001 naming the server and the reason (unreachable, authentication,
     *     missing database)
     */
    static Connection plain(CdcOptions options) {
        return open(options, false, 0);
    }

    /**
     * A logical replication connection ({@code replication=database}, simple query protocol).
     *
     * @param socketTimeoutSeconds how long a read may block before the connection counts as broken;
     *     0 for no limit (creating a slot waits for running transactions to end, however long)
     */
    static Connection replication(CdcOptions options, int socketTimeoutSeconds) {
        return open(options, true, socketTimeoutSeconds);
    }

    private static Connection open(CdcOptions options, boolean replication, int socketTimeoutSeconds) {
        Properties props = new Properties();
        PGProperty.USER.set(props, options.username());
        if (options.password() != null) {
            PGProperty.PASSWORD.set(props, options.password());
        }
        PGProperty.CONNECT_TIMEOUT.set(props, CONNECT_TIMEOUT_SECONDS);
        PGProperty.LOGIN_TIMEOUT.set(props, CONNECT_TIMEOUT_SECONDS);
        PGProperty.OPTIONS.set(props, "-c TimeZone=UTC");
        PGProperty.APPLICATION_NAME.set(props, "tributary postgres-cdc");
        PGProperty.SOCKET_TIMEOUT.set(props, socketTimeoutSeconds);
        PGProperty.TCP_KEEP_ALIVE.set(props, true);
        if (replication) {
            PGProperty.REPLICATION.set(props, "database");
            PGProperty.ASSUME_MIN_SERVER_VERSION.set(props, "10");
            PGProperty.PREFER_QUERY_MODE.set(props, "simple");
        }
        String host = options.hostname().contains(":") ? "[" + options.hostname() + "]" : options.hostname();
        String url = "jdbc:postgresql://" + host + ":" + options.port() + "/"
                + URLEncoder.encode(options.database(), StandardCharsets.UTF_8);
        try {
            return DriverManager.getConnection(url, props);
        } catch (SQLException e) {
            throw new ConnectorException(
                    SqlState.SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION,
                    "postgres-cdc cannot connect to PostgreSQL at "
                            + options.where() + " as user \"" + options.username() + "\""
                            + (replication ? " for logical replication" : "") + ": " + e.getMessage(),
                    e);
        }
    }
}

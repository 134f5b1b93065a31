package io.tributary.sql.calcite;

import io.tributary.catalog.pg.PgSession;
import java.util.Locale;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * {@code inet_client_addr()}, {@code inet_client_port()}, {@code inet_server_addr()} and {@code
 * inet_server_port()} as the constants of the session's connection, which is what they answer in
 * PostgreSQL: an address's text (PostgreSQL's type is inet, which Tributary does not have; {@code
 * pg_stat_activity.client_addr} is text too) and an int4 port, NULL for a connection without one.
 * Used by {@link PgCatalogCalls} while it rewrites a statement; stateless.
 */
final class ConnectionEndpointCalls {
    private ConnectionEndpointCalls() {}

    /**
     * The constant {@code call} (a call of function {@code name} without arguments) stands for on
     * a connection with {@code endpoints}; null when it is no call of these functions.
     */
    static SqlNode replacement(String name, SqlCall call, PgSession.Endpoints endpoints) {
        if (call.operandCount() != 0) {
            return null;
        }
        SqlParserPos pos = call.getParserPosition();
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "inet_client_addr" -> address(endpoints.clientAddress(), pos);
            case "inet_client_port" -> port(endpoints.clientPort(), pos);
            case "inet_server_addr" -> address(endpoints.serverAddress(), pos);
            case "inet_server_port" -> port(endpoints.serverPort(), pos);
            default -> null;
        };
    }

    private static SqlNode address(String address, SqlParserPos pos) {
        return PgCatalogCalls.castTo(
                address == null ? SqlLiteral.createNull(pos) : SqlLiteral.createCharString(address, pos),
                SqlTypeName.VARCHAR,
                pos);
    }

    private static SqlNode port(Integer port, SqlParserPos pos) {
        return PgCatalogCalls.castTo(
                port == null ? SqlLiteral.createNull(pos) : SqlLiteral.createExactNumeric(port.toString(), pos),
                SqlTypeName.INTEGER,
                pos);
    }
}

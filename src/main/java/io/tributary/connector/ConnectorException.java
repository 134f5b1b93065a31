package io.tributary.connector;

import io.tributary.common.TributaryException;

/** A connector's error for the user, with its SQLSTATE (22023 bad option value, 42601 unknown option, ...). */
public class ConnectorException extends TributaryException {
    public ConnectorException(String sqlState, String message) {
        super(sqlState, message);
    }

    public ConnectorException(String sqlState, String message, Throwable cause) {
        super(sqlState, message, cause);
    }
}

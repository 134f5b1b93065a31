package io.tributary.connector.postgres;

import io.tributary.common.TributaryException;
import io.tributary.common.types.PgTextFormat;
import io.tributary.connector.ConnectorException;
import io.tributary.connector.SourceColumn;
import java.util.List;

/**
 * Parses upstream values, which the snapshot and pgoutput both deliver in PostgreSQL's text format,
 * into canonical values of the declared columns. Stateless after construction; thread-safe.
 */
final class ColumnParser {
    private final List<SourceColumn> columns;
    private final String upstreamTable;

    ColumnParser(List<SourceColumn> columns, String upstreamTable) {
        this.columns = columns;
        this.upstreamTable = upstreamTable;
    }

    /** How many declared columns a row has. */
    int width() {
        return columns.size();
    }

    /**
     * @param text the value's text form, null for SQL NULL
     * @throws ConnectorException with the parser's SQLSTATE, naming the column, when the value does
     *     not fit the declared type (e.g. too long for a varchar(n))
     */
    Object parse(int column, String text) {
        try {
            return PgTextFormat.parse(columns.get(column).type(), text);
        } catch (TributaryException e) {
            throw new ConnectorException(
                    e.sqlState(),
                    "postgres-cdc: column \"" + columns.get(column).name() + "\" of upstream table " + upstreamTable
                            + ": " + e.getMessage());
        }
    }
}

package io.tributary.sql.calcite;

import io.tributary.common.TributaryException;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * An error a rewrite of the parsed tree finds ({@link TimeWindowCalls}' sizes, say), at the node
 * it names. The rewrite knows the node but not the texts: {@link SqlErrors#translate} turns the
 * node's parser position into the client's offset ({@link StatementPositions}). Reaching a client
 * untranslated it is still its SQLSTATE and message, without a position.
 */
final class PositionedError extends TributaryException {
    private final transient SqlParserPos at;

    private PositionedError(String sqlState, String message, String hint, SqlParserPos at) {
        super(sqlState, message, 0, null, hint, null);
        this.at = at;
    }

    /** The error {@code sqlState}, {@code message}, pointing at {@code node}. */
    static PositionedError at(SqlNode node, String sqlState, String message) {
        return new PositionedError(sqlState, message, null, node.getParserPosition());
    }

    /** The error {@code sqlState}, {@code message} with {@code hint}, pointing at {@code pos}. */
    static PositionedError at(SqlParserPos pos, String sqlState, String message, String hint) {
        return new PositionedError(sqlState, message, hint, pos);
    }

    /** This error with its position in the client's text. */
    TributaryException in(StatementPositions positions) {
        return new TributaryException(sqlState(), getMessage(), positions.validatedOffset(at), detail(), hint(), null);
    }
}

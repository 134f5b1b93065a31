package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * The SESSION case of {@link TimeWindowCalls}: {@code SESSION(relation [PARTITION BY col, ...], time_col, gap)}
 * becomes Calcite's {@code TABLE(SESSION(TABLE relation, DESCRIPTOR(time_col) [, DESCRIPTOR(col, ...)], gap))},
 * after checking that the gap is a positive day-time interval constant (22023). Calcite then resolves
 * the columns (42703 with a position) and {@link SessionWindows} checks the time column's type.
 */
final class SessionWindowCall {
    private SessionWindowCall() {}

    /** Calcite's form of a RisingWave-style SESSION call whose relation {@link TimeWindowCalls} found. */
    static SqlNode calciteForm(SqlCall call) {
        SqlParserPos pos = call.getParserPosition();
        if (call.operandCount() != 3) {
            throw new TributaryException(
                    SqlState.UNDEFINED_FUNCTION, "session takes (relation [PARTITION BY columns], time_col, gap)");
        }
        if (!(call.operand(1) instanceof SqlIdentifier column)) {
            throw new TributaryException(
                    SqlState.DATATYPE_MISMATCH, "the time column of session must be a column name");
        }
        TimeWindowCalls.positiveMillis(call.operand(2), "session");
        SqlNode relation = call.operand(0);
        List<SqlNode> keys = new ArrayList<>();
        if (relation instanceof SqlCall partitioned && partitioned.getKind() == SqlKind.SET_SEMANTICS_TABLE) {
            relation = partitioned.operand(0);
            for (SqlNode key : (SqlNodeList) partitioned.operand(1)) {
                if (!(key instanceof SqlIdentifier)) {
                    throw TributaryException.notSupported("a session PARTITION BY item that is not a column name");
                }
                keys.add(key);
            }
            if (!((SqlNodeList) partitioned.operand(2)).isEmpty()) {
                throw TributaryException.notSupported("ORDER BY in a session's relation");
            }
        }
        List<SqlNode> operands = new ArrayList<>();
        operands.add(SqlStdOperatorTable.EXPLICIT_TABLE.createCall(pos, relation));
        operands.add(SqlStdOperatorTable.DESCRIPTOR.createCall(pos, (SqlNode) column));
        if (!keys.isEmpty()) {
            operands.add(SqlStdOperatorTable.DESCRIPTOR.createCall(pos, keys));
        }
        operands.add(call.operand(2));
        return SqlStdOperatorTable.COLLECTION_TABLE.createCall(
                pos, SqlStdOperatorTable.SESSION.createCall(pos, operands));
    }
}

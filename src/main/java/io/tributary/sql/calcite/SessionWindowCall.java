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
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.util.Util;

/**
 * The SESSION case of {@link TimeWindowCalls}: {@code SESSION(relation [PARTITION BY col, ...], time_col, gap)}
 * becomes Calcite's {@code TABLE(SESSION(TABLE relation, DESCRIPTOR(time_col) [, DESCRIPTOR(col, ...)], gap))},
 * after checking that the gap is a positive day-time interval constant (22023); Flink's group-window form
 * ({@link #rewriteGroupWindow}) becomes the same. Calcite then resolves the columns (42703) and refuses a
 * time column that is not a timestamp ({@link SqlErrors} makes it 42804); {@link SessionWindows} expands the scan.
 */
final class SessionWindowCall {
    private static final String WINDOW_START = "window_start";
    private static final String WINDOW_END = "window_end";

    private SessionWindowCall() {}

    /** Calcite's form of a RisingWave-style SESSION call whose relation {@link TimeWindowCalls} found. */
    static SqlNode calciteForm(SqlCall call) {
        SqlParserPos pos = call.getParserPosition();
        if (call.operandCount() != 3) {
            throw PositionedError.at(
                    call,
                    SqlState.UNDEFINED_FUNCTION,
                    "session takes (relation [PARTITION BY columns], time_col, gap)");
        }
        if (!(call.operand(1) instanceof SqlIdentifier column)) {
            throw PositionedError.at(
                    call.operand(1), SqlState.DATATYPE_MISMATCH, "the time column of session must be a column name");
        }
        TimeWindowCalls.positiveMillis(call.operand(2), "session");
        SqlNode relation = call.operand(0);
        List<SqlNode> keys = new ArrayList<>();
        if (relation instanceof SqlCall partitioned && partitioned.getKind() == SqlKind.SET_SEMANTICS_TABLE) {
            relation = partitioned.operand(0);
            for (SqlNode key : (SqlNodeList) partitioned.operand(1)) {
                if (!(key instanceof SqlIdentifier)) {
                    throw PositionedError.at(
                            key,
                            SqlState.FEATURE_NOT_SUPPORTED,
                            "a session PARTITION BY item that is not a column name is not supported");
                }
                keys.add(key);
            }
            if (!((SqlNodeList) partitioned.operand(2)).isEmpty()) {
                throw PositionedError.at(
                        partitioned.operand(2),
                        SqlState.FEATURE_NOT_SUPPORTED,
                        "ORDER BY in a session's relation is not supported");
            }
        }
        return calciteForm(pos, relation, keys, column, call.operand(2));
    }

    private static SqlNode calciteForm(
            SqlParserPos pos, SqlNode relation, List<SqlNode> keys, SqlIdentifier time, SqlNode gap) {
        List<SqlNode> operands = new ArrayList<>();
        operands.add(SqlStdOperatorTable.EXPLICIT_TABLE.createCall(pos, relation));
        operands.add(SqlStdOperatorTable.DESCRIPTOR.createCall(pos, time));
        if (!keys.isEmpty()) {
            operands.add(SqlStdOperatorTable.DESCRIPTOR.createCall(pos, keys));
        }
        operands.add(gap);
        return SqlStdOperatorTable.COLLECTION_TABLE.createCall(
                pos, SqlStdOperatorTable.SESSION.createCall(pos, operands));
    }

    /**
     * Rewrites Flink's group-window form in place, {@code SELECT k, SESSION_START(ts, gap), SESSION_END(ts, gap), ...
     * FROM t [AS a] GROUP BY k, SESSION(ts, gap)}, into {@code SELECT k, window_start, window_end, ... FROM
     * SESSION(t PARTITION BY k, ts, gap) AS a GROUP BY k, window_start, window_end}: the other GROUP BY items
     * partition the sessions, as in Flink. Called by {@link TimeWindowCalls} on each SELECT before its FROM is read.
     *
     * @return whether {@code select} had a SESSION group window
     * @throws TributaryException 0A000 when FROM is not one table or the other GROUP BY items are not columns;
     *     22023 for a gap that is not a positive day-time interval constant
     */
    static boolean rewriteGroupWindow(SqlSelect select) {
        SqlNodeList group = select.getGroup();
        SqlCall session = null;
        if (group != null) {
            for (SqlNode item : group) {
                if (item instanceof SqlCall call && call.getKind() == SqlKind.SESSION) {
                    session = call;
                }
            }
        }
        if (session == null) {
            return false;
        }
        SqlParserPos pos = session.getParserPosition();
        if (session.operandCount() != 2 || !(session.operand(0) instanceof SqlIdentifier time)) {
            throw PositionedError.at(
                    session, SqlState.UNDEFINED_FUNCTION, "a SESSION group window takes (time_col, gap)");
        }
        TimeWindowCalls.positiveMillis(session.operand(1), "session");
        SqlNode from = select.getFrom();
        SqlNode alias = null;
        if (from instanceof SqlCall as && as.getKind() == SqlKind.AS && as.operandCount() == 2) {
            alias = as.operand(1);
            from = as.operand(0);
        }
        if (!(from instanceof SqlIdentifier relation)) {
            throw PositionedError.at(
                    from,
                    SqlState.FEATURE_NOT_SUPPORTED,
                    "a SESSION group window over anything but one table is not supported");
        }
        List<SqlNode> keys = new ArrayList<>();
        List<SqlNode> grouped = new ArrayList<>();
        for (SqlNode item : group) {
            if (item == session) {
                continue;
            }
            if (!(item instanceof SqlIdentifier key)) {
                throw PositionedError.at(
                        item,
                        SqlState.FEATURE_NOT_SUPPORTED,
                        "a GROUP BY item beside a SESSION group window that is not a column is not supported");
            }
            keys.add(unqualified(key));
            grouped.add(item);
        }
        grouped.add(new SqlIdentifier(WINDOW_START, pos));
        grouped.add(new SqlIdentifier(WINDOW_END, pos));
        select.setGroupBy(new SqlNodeList(grouped, group.getParserPosition()));
        SqlNode windowed = calciteForm(pos, relation, keys, unqualified(time), session.operand(1));
        SqlIdentifier name = alias instanceof SqlIdentifier a ? a : new SqlIdentifier(Util.last(relation.names), pos);
        select.setFrom(SqlStdOperatorTable.AS.createCall(from.getParserPosition(), windowed, name));
        SqlShuttle bounds = new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                String function = call.getOperator().getName();
                if (function.equalsIgnoreCase("SESSION_START")) {
                    return new SqlIdentifier(WINDOW_START, call.getParserPosition());
                }
                if (function.equalsIgnoreCase("SESSION_END")) {
                    return new SqlIdentifier(WINDOW_END, call.getParserPosition());
                }
                return super.visit(call);
            }
        };
        StatementRewrite.replaceSelectItems(select, bounds);
        if (select.getHaving() != null) {
            select.setHaving(select.getHaving().accept(bounds));
        }
        return true;
    }

    private static SqlIdentifier unqualified(SqlIdentifier column) {
        return new SqlIdentifier(Util.last(column.names), column.getParserPosition());
    }
}

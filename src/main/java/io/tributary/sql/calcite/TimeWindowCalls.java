package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlIntervalLiteral;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.Util;

/**
 * Gives RisingWave's time-window syntax in FROM, {@code TUMBLE(relation, time_col, size [, offset])}
 * and {@code HOP(relation, time_col, slide, size [, offset])}, Calcite's form of the same table
 * functions, {@code TABLE(TUMBLE(TABLE relation, DESCRIPTOR(time_col), size [, offset]))}; both add
 * {@code window_start} and {@code window_end}. {@code SESSION(relation [PARTITION BY cols], time_col, gap)}
 * is given the same way ({@link SessionWindowCall}). Checks what can be checked before validation, as
 * RisingWave does: sizes are positive constants (22023) and a HOP's size is a multiple of its slide
 * (22023). The column's type is checked by {@link TimeWindows} once it is known.
 */
final class TimeWindowCalls extends StatementRewrite {
    @Override
    public SqlNode visit(SqlCall call) {
        if (call instanceof SqlSelect select && select.getFrom() != null) {
            if (SessionWindowCall.rewriteGroupWindow(select)) {
                rewritten(select);
            }
            select.setFrom(from(select.getFrom()));
        }
        return super.visit(call);
    }

    /** A FROM item with a RisingWave window call in it (alone, aliased or in a join) rewritten. */
    private SqlNode from(SqlNode item) {
        return from(item, false);
    }

    /**
     * @param aliased whether {@code item} is the operand of an AS: an unaliased window call is named
     *     after its relation, as RisingWave names it ({@code HOP(bid, ...)} is read as {@code bid.price})
     */
    private SqlNode from(SqlNode item, boolean aliased) {
        if (item instanceof SqlJoin join) {
            join.setLeft(from(join.getLeft()));
            join.setRight(from(join.getRight()));
            return join;
        }
        if (item instanceof SqlCall call && call.getKind() == SqlKind.AS) {
            call.setOperand(0, from(call.operand(0), true));
            return call;
        }
        SqlCall window = null;
        if (item instanceof SqlCall table
                && table.getKind() == SqlKind.COLLECTION_TABLE
                && table.operand(0) instanceof SqlCall call
                && isRisingWaveWindow(call)) {
            // the parser reads a function call in FROM as TABLE(call)
            window = call;
        } else if (item instanceof SqlCall call && isRisingWaveWindow(call)) {
            window = call;
        }
        if (window == null) {
            return item;
        }
        SqlNode rewritten = rewritten(calciteForm(window));
        if (aliased) {
            return rewritten;
        }
        SqlIdentifier relation = relation(window);
        SqlParserPos pos = window.getParserPosition();
        return SqlStdOperatorTable.AS.createCall(pos, rewritten, new SqlIdentifier(Util.last(relation.names), pos));
    }

    /**
     * {@code TUMBLE(ident, ...)}, {@code HOP(ident, ...)} or {@code SESSION(ident [PARTITION BY ...], ...)}:
     * Calcite's own form has TABLE there.
     */
    private static boolean isRisingWaveWindow(SqlCall call) {
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        return (name.equals("TUMBLE") || name.equals("HOP") || name.equals("SESSION"))
                && call.operandCount() >= 1
                && relation(call) != null;
    }

    /** The relation named by a window call's first operand, or null when it names none. */
    private static SqlIdentifier relation(SqlCall window) {
        SqlNode first = window.operand(0);
        if (first instanceof SqlCall partitioned
                && partitioned.getKind() == SqlKind.SET_SEMANTICS_TABLE
                && window.getOperator().getName().equalsIgnoreCase("SESSION")) {
            first = partitioned.operand(0);
        }
        return first instanceof SqlIdentifier relation ? relation : null;
    }

    private static SqlNode calciteForm(SqlCall call) {
        if (call.getOperator().getName().equalsIgnoreCase("SESSION")) {
            return SessionWindowCall.calciteForm(call);
        }
        SqlParserPos pos = call.getParserPosition();
        boolean hop = call.getOperator().getName().equalsIgnoreCase("HOP");
        String name = hop ? "hop" : "tumble";
        int sizes = hop ? 2 : 1;
        if (call.operandCount() < 2 + sizes || call.operandCount() > 3 + sizes) {
            throw new TributaryException(
                    SqlState.UNDEFINED_FUNCTION,
                    name + " takes (relation, time_col, " + (hop ? "slide, size" : "size") + " [, offset])");
        }
        if (!(call.operand(1) instanceof SqlIdentifier column)) {
            throw new TributaryException(
                    SqlState.DATATYPE_MISMATCH, "the time column of " + name + " must be a column name");
        }
        List<SqlNode> operands = new ArrayList<>();
        SqlNode relation = call.operand(0);
        operands.add(SqlStdOperatorTable.EXPLICIT_TABLE.createCall(pos, relation));
        operands.add(SqlStdOperatorTable.DESCRIPTOR.createCall(pos, (SqlNode) column));
        long[] millis = new long[sizes];
        for (int i = 0; i < sizes; i++) {
            millis[i] = positiveMillis(call.operand(2 + i), name);
            SqlNode size = call.operand(2 + i);
            operands.add(size);
        }
        if (hop && millis[1] % millis[0] != 0) {
            throw new TributaryException(
                    SqlState.INVALID_PARAMETER_VALUE, "the size of a hop window must be a multiple of its slide");
        }
        if (call.operandCount() == 3 + sizes) {
            SqlNode offset = call.operand(2 + sizes);
            intervalMillis(offset, name);
            operands.add(offset);
        }
        SqlCall window = (hop ? SqlStdOperatorTable.HOP : SqlStdOperatorTable.TUMBLE).createCall(pos, operands);
        return SqlStdOperatorTable.COLLECTION_TABLE.createCall(pos, window);
    }

    static long positiveMillis(SqlNode size, String function) {
        long millis = intervalMillis(size, function);
        if (millis <= 0) {
            throw new TributaryException(
                    SqlState.INVALID_PARAMETER_VALUE, "the window size of " + function + " must be positive");
        }
        return millis;
    }

    /** A day-time interval constant in milliseconds; anything else is 22023. */
    static long intervalMillis(SqlNode node, String function) {
        SqlNode n = node;
        boolean negate = false;
        if (n instanceof SqlBasicCall c && c.getKind() == SqlKind.MINUS_PREFIX) {
            negate = true;
            n = c.operand(0);
        }
        if (n instanceof SqlIntervalLiteral literal
                && literal.getValue() instanceof SqlIntervalLiteral.IntervalValue value
                && !value.getIntervalQualifier().isYearMonth()) {
            long ms = literal.getValueAs(Long.class);
            return negate ? -ms : ms;
        }
        throw new TributaryException(
                SqlState.INVALID_PARAMETER_VALUE,
                "the sizes and offset of " + function + " must be constant day-time intervals");
    }
}

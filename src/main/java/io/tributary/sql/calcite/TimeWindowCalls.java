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
            refuseGroupWindows(select);
            if (SessionWindowCall.rewriteGroupWindow(select)) {
                rewritten(select);
            }
            FromItems.replaceIn(select, this::fromItem);
        }
        return super.visit(call);
    }

    /**
     * Calcite's group-window TUMBLE and HOP in GROUP BY ({@code GROUP BY TUMBLE(ts, size)}), which no
     * plan implements: 0A000 at the call (Flink's SESSION form is rewritten, see {@link SessionWindowCall}).
     */
    private static void refuseGroupWindows(SqlSelect select) {
        if (select.getGroup() == null) {
            return;
        }
        for (SqlNode item : select.getGroup()) {
            // the parser names Calcite's group-window functions $TUMBLE and $HOP
            String name = item instanceof SqlCall call
                    ? call.getOperator().getName().replace("$", "").toLowerCase(Locale.ROOT)
                    : "";
            if (name.equals("tumble") || name.equals("hop")) {
                throw PositionedError.at(
                        item,
                        SqlState.FEATURE_NOT_SUPPORTED,
                        "the group window " + name + "(...) in GROUP BY is not supported; group by window_start over "
                                + name + "(relation, time_col, ...) in FROM instead");
            }
        }
    }

    /**
     * The time column (the DESCRIPTOR's column) of the first TUMBLE, HOP or SESSION call in
     * Calcite's form within {@code node}, or null: where an error about the column points.
     */
    static SqlNode timeColumn(SqlNode node) {
        if (!(node instanceof SqlCall call)) {
            return null;
        }
        // the parser reads DESCRIPTOR(...) as a function of that name; validation makes it Calcite's operator
        if (isWindowName(call)
                && call.operandCount() > 1
                && call.operand(1) instanceof SqlCall d
                && d.getOperator().getName().equalsIgnoreCase("DESCRIPTOR")
                && d.operandCount() > 0) {
            return d.operand(0);
        }
        for (SqlNode operand : call.getOperandList()) {
            SqlNode found = timeColumn(operand);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    private static boolean isWindowName(SqlCall call) {
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        return name.equals("TUMBLE") || name.equals("HOP") || name.equals("SESSION");
    }

    /**
     * A FROM item (see {@link FromItems.Replacer}) with a RisingWave window call in it rewritten. An
     * unaliased window call is named after its relation, as RisingWave names it ({@code HOP(bid,
     * ...)} is read as {@code bid.price}).
     */
    private SqlNode fromItem(SqlNode item, SqlCall alias) {
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
            if (item instanceof SqlCall table
                    && table.getKind() == SqlKind.COLLECTION_TABLE
                    && table.operand(0) instanceof SqlCall call
                    && isWindowName(call)) {
                checkCalciteForm(call);
            }
            return FromItems.unchanged(item, alias);
        }
        SqlNode rewritten = rewritten(calciteForm(window));
        if (alias != null) {
            return FromItems.withRelation(alias, rewritten);
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
        return isWindowName(call) && call.operandCount() >= 1 && relation(call) != null;
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
            throw PositionedError.at(
                    call,
                    SqlState.UNDEFINED_FUNCTION,
                    name + " takes (relation, time_col, " + (hop ? "slide, size" : "size") + " [, offset])");
        }
        if (!(call.operand(1) instanceof SqlIdentifier column)) {
            throw PositionedError.at(
                    call.operand(1),
                    SqlState.DATATYPE_MISMATCH,
                    "the time column of " + name + " must be a column name");
        }
        List<SqlNode> operands = new ArrayList<>();
        SqlNode relation = call.operand(0);
        operands.add(SqlStdOperatorTable.EXPLICIT_TABLE.createCall(pos, relation));
        operands.add(SqlStdOperatorTable.DESCRIPTOR.createCall(pos, (SqlNode) column));
        for (int i = 2; i < call.operandCount(); i++) {
            operands.add(call.operand(i));
        }
        checkSizes(
                name,
                call.getOperandList().subList(2, 2 + sizes),
                call.getOperandList().subList(2 + sizes, call.operandCount()));
        SqlCall window = (hop ? SqlStdOperatorTable.HOP : SqlStdOperatorTable.TUMBLE).createCall(pos, operands);
        return SqlStdOperatorTable.COLLECTION_TABLE.createCall(pos, window);
    }

    /**
     * Checks the intervals of Calcite's form of a window call, {@code TUMBLE(TABLE t, DESCRIPTOR(c),
     * size [, offset])}, {@code HOP(..., slide, size [, offset])} or {@code SESSION(..., [DESCRIPTOR(keys),]
     * gap)}, as {@link #calciteForm} checks RisingWave's: a wrong count of operands is left to Calcite.
     */
    private static void checkCalciteForm(SqlCall call) {
        String name = call.getOperator().getName().toLowerCase(Locale.ROOT);
        List<SqlNode> intervals = new ArrayList<>();
        for (SqlNode operand : call.getOperandList().subList(Math.min(2, call.operandCount()), call.operandCount())) {
            if (!(operand instanceof SqlCall c && c.getOperator().getName().equalsIgnoreCase("DESCRIPTOR"))) {
                intervals.add(operand);
            }
        }
        int sizes = name.equals("hop") ? 2 : 1;
        if (intervals.size() >= sizes && (!name.equals("session") || intervals.size() == 1)) {
            checkSizes(name, intervals.subList(0, sizes), intervals.subList(sizes, intervals.size()));
        }
    }

    /**
     * Checks a window call's sizes (a HOP's slide and size, a TUMBLE's size, a SESSION's gap) and
     * optional offset: positive constant day-time intervals, a HOP's size a multiple of its slide.
     *
     * @throws TributaryException 22023 pointing at the interval at fault; 0A000 at a HOP's size
     *     when it puts a row in more than {@link TimeWindows#MAX_HOP_WINDOWS} windows
     */
    static void checkSizes(String function, List<SqlNode> sizes, List<SqlNode> offsets) {
        long[] millis = new long[sizes.size()];
        for (int i = 0; i < millis.length; i++) {
            millis[i] = positiveMillis(sizes.get(i), function);
        }
        if (millis.length == 2 && millis[1] % millis[0] != 0) {
            throw PositionedError.at(
                    sizes.get(1),
                    SqlState.INVALID_PARAMETER_VALUE,
                    "the size of a hop window must be a multiple of its slide");
        }
        if (millis.length == 2 && millis[1] / millis[0] > TimeWindows.MAX_HOP_WINDOWS) {
            throw PositionedError.at(
                    sizes.get(1),
                    SqlState.FEATURE_NOT_SUPPORTED,
                    "HOP with more than " + TimeWindows.MAX_HOP_WINDOWS
                            + " windows per row (size / slide) is not supported");
        }
        for (SqlNode offset : offsets) {
            intervalMillis(offset, function);
        }
    }

    static long positiveMillis(SqlNode size, String function) {
        long millis = intervalMillis(size, function);
        if (millis <= 0) {
            throw PositionedError.at(
                    size, SqlState.INVALID_PARAMETER_VALUE, "the window size of " + function + " must be positive");
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
        throw PositionedError.at(
                node,
                SqlState.INVALID_PARAMETER_VALUE,
                "the sizes and offset of " + function + " must be constant day-time intervals");
    }
}

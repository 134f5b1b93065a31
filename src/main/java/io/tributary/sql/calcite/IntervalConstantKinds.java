package io.tributary.sql.calcite;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlIntervalLiteral;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.fun.SqlInternalOperators;

/**
 * Makes Calcite's interval constants PostgreSQL's ({@code pg_interval('text')}, {@link
 * PgIntervals#literal}) where the constructs that combine values into one type would find none:
 * PostgreSQL has one interval type, Calcite a year-month and a day-time kind that no common type
 * joins, and its own intervals are no type of Calcite's interval family either. So where the
 * values of one VALUES column, of one column of a set operation's inputs, of a CASE's results, of
 * COALESCE's, GREATEST's or LEAST's arguments, or of an IN comparison and its list hold constants
 * of both kinds ({@code VALUES (INTERVAL '1 mon'), (INTERVAL '2 days')}), or a constant beside
 * PostgreSQL's own interval constant or function result, every Calcite constant among them
 * becomes PostgreSQL's, and so do string constants among interval constants alone ({@code
 * VALUES ('2 mons'), (INTERVAL '3 hours')}). An {@code ARRAY[...]} or {@code array_agg} of
 * Calcite interval constants takes PostgreSQL's too: Calcite's arrays of its intervals do not
 * run, while an {@code interval[]} of PostgreSQL's prints as PostgreSQL prints it. What only
 * validation knows, a constant beside an interval column, is {@link #besidePgIntervals}'s.
 * Computed Calcite intervals ({@code ts - ts}) are left as they are; a set operation of an
 * interval column and a Calcite constant is {@link CommonTypeResolution#resolveSetOperation}'s,
 * which knows the column's type. Applied by {@link StatementRewrite#applyAll}
 * after {@link IntervalSemantics}, whose PostgreSQL constants it recognises; one instance per
 * statement.
 */
final class IntervalConstantKinds extends StatementRewrite {
    /** A place in the statement tree where a value sits, and how to put another there. */
    record Slot(SqlNode node, Consumer<SqlNode> set) {
        /** Where {@code node} sits, or its operand inside Calcite's {@code CAST NOT NULL}. */
        static Slot of(SqlNode node, Consumer<SqlNode> set) {
            if (node instanceof SqlCall call && call.getOperator() == SqlInternalOperators.CAST_NOT_NULL) {
                return new Slot(call.operand(0), inner -> call.setOperand(0, inner));
            }
            return new Slot(node, set);
        }

        /** The slots of {@code call}'s operands. */
        static List<Slot> operands(SqlCall call) {
            List<Slot> slots = new ArrayList<>();
            for (int i = 0; i < call.operandCount(); i++) {
                int at = i;
                if (call.operand(i) != null) {
                    slots.add(of(call.operand(i), node -> call.setOperand(at, node)));
                }
            }
            return slots;
        }

        /** The slots of {@code list}'s elements. */
        static List<Slot> elements(SqlNodeList list) {
            List<Slot> slots = new ArrayList<>();
            for (int i = 0; i < list.size(); i++) {
                int at = i;
                slots.add(of(list.get(i), node -> list.set(at, node)));
            }
            return slots;
        }
    }

    @Override
    public SqlNode visit(SqlCall call) {
        SqlNode visited = super.visit(call);
        if (!(visited instanceof SqlCall c)) {
            return visited;
        }
        String name = c.getOperator().getName().toLowerCase(Locale.ROOT);
        if (c.getKind() == SqlKind.VALUES) {
            valuesColumns(c);
        } else if (c.getKind() == SqlKind.UNION || c.getKind() == SqlKind.INTERSECT || c.getKind() == SqlKind.EXCEPT) {
            setOperationColumns(c);
        } else if (c instanceof SqlCase sqlCase) {
            resolve(results(sqlCase), false);
        } else if (name.equals("coalesce") || name.equals("greatest") || name.equals("least")) {
            resolve(Slot.operands(c), false);
        } else if (c.getKind() == SqlKind.ARRAY_VALUE_CONSTRUCTOR
                || name.equals("array_agg")
                || name.equals(PgArrayAgg.NAME)) {
            resolve(Slot.operands(c), true);
        } else if (inList(c)) {
            resolve(inSlots(c), false);
        }
        return visited;
    }

    /** Each column of a VALUES list of several rows, resolved apart. */
    private void valuesColumns(SqlCall values) {
        List<SqlNode> rows = values.getOperandList();
        if (rows.size() < 2 || !(rows.get(0) instanceof SqlCall first)) {
            return;
        }
        for (int i = 0; i < first.operandCount(); i++) {
            List<Slot> slots = new ArrayList<>();
            for (SqlNode row : rows) {
                if (!(row instanceof SqlCall r) || r.getKind() != SqlKind.ROW || r.operandCount() <= i) {
                    return; // Calcite's error says so
                }
                int at = i;
                slots.add(new Slot(r.operand(i), node -> r.setOperand(at, node)));
            }
            resolve(slots, false);
        }
    }

    /** Each column of a set operation's inputs (through nested set operations), resolved apart. */
    private void setOperationColumns(SqlCall setop) {
        List<SqlNode> inputs = new ArrayList<>();
        inputs(setop, inputs);
        for (int i = 0; ; i++) {
            List<Slot> slots = new ArrayList<>();
            for (SqlNode input : inputs) {
                column(input, i, slots);
            }
            if (slots.isEmpty()) {
                return;
            }
            resolve(slots, false);
        }
    }

    private static void inputs(SqlNode node, List<SqlNode> out) {
        SqlKind kind = node.getKind();
        if ((kind == SqlKind.UNION || kind == SqlKind.INTERSECT || kind == SqlKind.EXCEPT)
                && node instanceof SqlCall c) {
            for (SqlNode operand : c.getOperandList()) {
                inputs(operand, out);
            }
        } else {
            out.add(node);
        }
    }

    /** Adds the slot(s) of column {@code i} of a set operation's input: a select item, or each VALUES row's cell. */
    private static void column(SqlNode input, int i, List<Slot> slots) {
        if (input instanceof SqlSelect select) {
            SqlNodeList items = select.getSelectList();
            if (items == null || i >= items.size()) {
                return;
            }
            SqlNode item = items.get(i);
            if (item.getKind() == SqlKind.AS && item instanceof SqlCall as) {
                slots.add(new Slot(as.operand(0), node -> as.setOperand(0, node)));
            } else {
                slots.add(new Slot(item, node -> items.set(i, node)));
            }
        } else if (input.getKind() == SqlKind.VALUES && input instanceof SqlCall values) {
            for (SqlNode row : values.getOperandList()) {
                if (row instanceof SqlCall r && r.getKind() == SqlKind.ROW && i < r.operandCount()) {
                    slots.add(new Slot(r.operand(i), node -> r.setOperand(i, node)));
                }
            }
        }
    }

    /** The slots of a CASE's results: its THENs and its ELSE. */
    static List<Slot> results(SqlCase sqlCase) {
        List<Slot> slots = Slot.elements(sqlCase.getThenOperands());
        if (sqlCase.getElseOperand() != null) {
            slots.add(Slot.of(sqlCase.getElseOperand(), node -> sqlCase.setOperand(3, node)));
        }
        return slots;
    }

    /** Whether {@code call} is {@code x [NOT] IN (list)}. */
    static boolean inList(SqlCall call) {
        return (call.getKind() == SqlKind.IN || call.getKind() == SqlKind.NOT_IN)
                && call.operandCount() == 2
                && call.operand(1) instanceof SqlNodeList;
    }

    /** The slots of {@code x [NOT] IN (list)}: {@code x} and the list's elements. */
    static List<Slot> inSlots(SqlCall call) {
        List<Slot> slots = Slot.elements((SqlNodeList) call.operand(1));
        slots.add(Slot.of(call.operand(0), node -> call.setOperand(0, node)));
        return slots;
    }

    /**
     * Makes the Calcite interval constants of {@code slots} PostgreSQL's when they are of both
     * kinds, beside a PostgreSQL interval or beside string constants, or, with {@code always},
     * whenever there is one; string constants become PostgreSQL's intervals too when all the
     * other values are interval constants (of either) or NULLs: PostgreSQL reads them as the
     * interval they stand beside, Calcite's cast cannot read months into a day-time interval, and
     * nothing casts text to PostgreSQL's interval.
     */
    private void resolve(List<Slot> slots, boolean always) {
        boolean months = false;
        boolean dayTime = false;
        boolean pg = false;
        boolean strings = false;
        boolean others = false;
        for (Slot slot : slots) {
            SqlNode node = slot.node();
            if (node instanceof SqlIntervalLiteral lit) {
                if (yearMonth(lit)) {
                    months = true;
                } else {
                    dayTime = true;
                }
            } else if (node instanceof SqlCharStringLiteral) {
                strings = true;
            } else if (isPgInterval(node)) {
                pg = true;
            } else {
                others |= !SqlUtil.isNullLiteral(node, false);
            }
        }
        boolean calcite = months || dayTime;
        boolean textToo = strings && !others && (calcite || pg);
        if (!(calcite && (always || (months && dayTime) || pg)) && !textToo) {
            return;
        }
        convert(slots, textToo);
        rewritten(slots.get(0).node());
    }

    /**
     * Makes the Calcite interval constants among {@code slots} PostgreSQL's when a value beside
     * them is of PostgreSQL's interval type ({@code coalesce(interval_col, INTERVAL '1 day')},
     * {@code iv IN (INTERVAL '1 mon', '1 day')}), which only validation knows: no common type joins
     * the two; in a VALUES column ({@code values}) of constants, also beside string constants,
     * which then become intervals too. Called by {@link ConstructConstants} and {@link
     * CommonTypeResolution} before Calcite derives the construct's type; {@code typeOf} gives a
     * value's validated type.
     */
    static void besidePgIntervals(List<Slot> slots, Function<SqlNode, RelDataType> typeOf, boolean values) {
        boolean constant = false;
        boolean pg = false;
        boolean strings = false;
        boolean others = false;
        for (Slot slot : slots) {
            SqlNode node = slot.node();
            if (node instanceof SqlIntervalLiteral) {
                constant = true;
            } else if (node instanceof SqlCharStringLiteral) {
                strings = true;
            } else if (node != null && !PgTypeCoercion.unknownTyped(node)) {
                boolean interval = !(node instanceof SqlLiteral) && PgIntervals.isInterval(typeOf.apply(node));
                pg |= interval;
                others |= !interval;
            }
        }
        if (constant && (pg || (values && strings && !others))) {
            convert(slots, values && strings && !others);
        }
    }

    /** Each Calcite interval constant of {@code slots} as PostgreSQL's, and with {@code text} each string constant. */
    private static void convert(List<Slot> slots, boolean text) {
        for (Slot slot : slots) {
            if (slot.node() instanceof SqlIntervalLiteral lit) {
                slot.set().accept(PgIntervals.literal(lit));
            } else if (text && slot.node() instanceof SqlCharStringLiteral string) {
                slot.set().accept(ConstructConstants.interval(string));
            }
        }
    }

    private static boolean yearMonth(SqlIntervalLiteral lit) {
        return lit.getValueAs(SqlIntervalLiteral.IntervalValue.class)
                .getIntervalQualifier()
                .isYearMonth();
    }

    /**
     * Whether {@code node} is PostgreSQL's interval by its form: {@code pg_interval('text')}, or a
     * call of one of the interval functions that return one ({@link PgIntervalFunctions}).
     */
    private static boolean isPgInterval(SqlNode node) {
        if (!(node instanceof SqlCall call) || call.getKind() != SqlKind.OTHER_FUNCTION) {
            return false;
        }
        String name = call.getOperator().getName().toLowerCase(Locale.ROOT);
        return name.equals("pg_interval")
                || name.equals("pg_interval_add")
                || name.equals("pg_interval_sub")
                || name.equals("pg_interval_mul")
                || name.equals("pg_interval_div")
                || name.equals("pg_make_interval")
                || name.startsWith("justify_");
    }
}

package io.tributary.sql.calcite;

import io.tributary.sql.StatementControl;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.calcite.adapter.enumerable.EnumerableAggregate;
import org.apache.calcite.adapter.enumerable.EnumerableCollect;
import org.apache.calcite.adapter.enumerable.EnumerableCorrelate;
import org.apache.calcite.adapter.enumerable.EnumerableHashJoin;
import org.apache.calcite.adapter.enumerable.EnumerableIntersect;
import org.apache.calcite.adapter.enumerable.EnumerableLimitSort;
import org.apache.calcite.adapter.enumerable.EnumerableMinus;
import org.apache.calcite.adapter.enumerable.EnumerableNestedLoopJoin;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRepeatUnion;
import org.apache.calcite.adapter.enumerable.EnumerableSort;
import org.apache.calcite.adapter.enumerable.EnumerableTableSpool;
import org.apache.calcite.adapter.enumerable.EnumerableWindow;
import org.apache.calcite.plan.RelOptLattice;
import org.apache.calcite.plan.RelOptMaterialization;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rel.rules.JoinAssociateRule;
import org.apache.calcite.rel.rules.JoinPushThroughJoinRule;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.tools.Program;
import org.apache.calcite.tools.Programs;

/**
 * Calcite's standard planning program (without exhaustive join reordering once a statement has
 * {@value #MANY_JOINS} joins or more) followed by a pass that puts a {@link GuardedRel} on every
 * edge between enumerable operators and above the root. Every loop of the generated code that
 * pulls a row therefore checks the statement's {@link StatementControl}; the edges into operators
 * that keep rows (sorts, hash-join build sides, nested-loop inner sides, set operations, windows,
 * grouping) also account the memory those rows take. A nested-loop join's inner side is read once
 * and kept ({@link GuardedEnumerable#SPOOLED}) rather than run again for every outer row.
 *
 * <p>What a guard cannot reach: work an operator does between two pulls, over rows it already
 * holds, for instance a nested-loop join comparing one outer row with its whole inner side, or
 * the sort itself once its input is read. Such work is bounded by the memory budget.
 */
final class GuardProgram implements Program {
    /** Rough heap cost of a hash table or tree entry that holds a row or group. */
    private static final long ENTRY_BYTES = 48;

    /** Joins in a statement from which the planner stops moving joins through each other. */
    private static final int MANY_JOINS = 4;

    private final Program standard = Programs.standard();
    private final StatementControl control;

    GuardProgram(StatementControl control) {
        this.control = control;
    }

    @Override
    public RelNode run(
            RelOptPlanner planner,
            RelNode rel,
            RelTraitSet requiredOutputTraits,
            List<RelOptMaterialization> materializations,
            List<RelOptLattice> lattices) {
        if (RelOptUtil.countJoins(rel) >= MANY_JOINS) {
            // exhaustive join reordering of five or more relations runs for minutes (pg_dump's
            // view-dependency query planned for over 15); such joins keep their written order
            for (RelOptRule rule : List.copyOf(planner.getRules())) {
                if (rule instanceof JoinPushThroughJoinRule || rule instanceof JoinAssociateRule) {
                    planner.removeRule(rule);
                }
            }
        }
        RelNode best = standard.run(planner, rel, requiredOutputTraits, materializations, lattices);
        RelNode guarded = guard(best, false, new IdentityHashMap<>());
        return guarded instanceof EnumerableRel
                ? new GuardedRel(guarded, control, GuardedEnumerable.STREAM, 0, 0, new int[0])
                : guarded;
    }

    /**
     * Copies the tree with guards on its enumerable edges; shared subtrees stay shared.
     *
     * @param correlated whether {@code rel} is under a correlate's right side, whose plan runs
     *     again for each left row: a spool there would be kept (and accounted) once per run
     */
    private RelNode guard(RelNode rel, boolean correlated, Map<RelNode, RelNode> done) {
        RelNode seen = done.get(rel);
        if (seen != null) {
            return seen;
        }
        List<RelNode> inputs = rel.getInputs();
        RelNode out = rel;
        if (!inputs.isEmpty()) {
            List<RelNode> guardedInputs = new ArrayList<>(inputs.size());
            for (int i = 0; i < inputs.size(); i++) {
                boolean underCorrelate = correlated || (rel instanceof EnumerableCorrelate && i == 1);
                RelNode child = guard(inputs.get(i), underCorrelate, done);
                if (rel instanceof EnumerableRel && child instanceof EnumerableRel) {
                    child = edge(rel, i, child, underCorrelate);
                }
                guardedInputs.add(child);
            }
            out = rel.copy(rel.getTraitSet(), guardedInputs);
        }
        done.put(rel, out);
        return out;
    }

    /** The guard for input {@code i} of {@code parent}: what the parent keeps of it decides the mode. */
    private GuardedRel edge(RelNode parent, int i, RelNode child, boolean correlated) {
        RelDataType in = child.getRowType();
        if (parent instanceof EnumerableAggregate agg && !agg.getGroupSet().isEmpty() && !keepsInputRows(agg)) {
            return new GuardedRel(
                    child,
                    control,
                    GuardedEnumerable.GROUPED,
                    ENTRY_BYTES + rowBytes(agg.getRowType()),
                    0,
                    agg.getGroupSet().toArray());
        }
        if (parent instanceof SetOp setOp && !setOp.all) {
            return new GuardedRel(
                    child,
                    control,
                    GuardedEnumerable.GROUPED,
                    ENTRY_BYTES + rowBytes(in),
                    0,
                    IntStream.range(0, in.getFieldCount()).toArray());
        }
        if (parent instanceof EnumerableRepeatUnion repeat && !repeat.all) {
            return new GuardedRel(
                    child,
                    control,
                    GuardedEnumerable.GROUPED,
                    ENTRY_BYTES + rowBytes(in),
                    0,
                    IntStream.range(0, in.getFieldCount()).toArray());
        }
        boolean keeps = parent instanceof EnumerableSort
                || parent instanceof EnumerableWindow
                || parent instanceof EnumerableCollect
                || parent instanceof EnumerableTableSpool
                || parent instanceof EnumerableMinus
                || parent instanceof EnumerableIntersect
                || (parent instanceof EnumerableAggregate agg && keepsInputRows(agg))
                || (parent instanceof EnumerableHashJoin && i == 1)
                || (parent instanceof EnumerableNestedLoopJoin && i == 1 && correlated);
        if (parent instanceof EnumerableNestedLoopJoin && i == 1 && !correlated) {
            return new GuardedRel(child, control, GuardedEnumerable.SPOOLED, rowBytes(in), Long.MAX_VALUE, new int[0]);
        }
        if (keeps) {
            return new GuardedRel(
                    child, control, GuardedEnumerable.MATERIALIZED, rowBytes(in), Long.MAX_VALUE, new int[0]);
        }
        if (parent instanceof EnumerableLimitSort topN) {
            return new GuardedRel(child, control, GuardedEnumerable.MATERIALIZED, rowBytes(in), kept(topN), new int[0]);
        }
        return new GuardedRel(child, control, GuardedEnumerable.STREAM, 0, 0, new int[0]);
    }

    /** The rows a top-N sort keeps: offset + fetch when both are literals, else every row. */
    private static long kept(EnumerableLimitSort topN) {
        long offset = topN.offset == null ? 0 : literal(topN.offset);
        long fetch = topN.fetch == null ? Long.MAX_VALUE : literal(topN.fetch);
        return offset < 0 || fetch < 0 || fetch > Long.MAX_VALUE - offset ? Long.MAX_VALUE : offset + fetch;
    }

    /** A literal's value, or -1 when the expression is a parameter or otherwise not known now. */
    private static long literal(org.apache.calcite.rex.RexNode node) {
        if (node instanceof org.apache.calcite.rex.RexLiteral lit) {
            Long v = lit.getValueAs(Long.class);
            return v == null ? -1 : v;
        }
        return -1;
    }

    /** True when some aggregate keeps its input values (DISTINCT, WITHIN GROUP, lists). */
    private static boolean keepsInputRows(EnumerableAggregate agg) {
        for (AggregateCall call : agg.getAggCallList()) {
            SqlKind kind = call.getAggregation().getKind();
            if (call.isDistinct()
                    || !call.getCollation().getFieldCollations().isEmpty()
                    || kind == SqlKind.COLLECT
                    || kind == SqlKind.ARRAY_AGG
                    || call.getAggregation() == PgArrayAgg.OPERATOR
                    || kind == SqlKind.ARRAY_CONCAT_AGG
                    || kind == SqlKind.LISTAGG
                    || kind == SqlKind.STRING_AGG
                    || kind == SqlKind.PERCENTILE_CONT
                    || kind == SqlKind.PERCENTILE_DISC
                    || kind == SqlKind.MODE) {
                return true;
            }
        }
        return false;
    }

    /** An estimate of the heap bytes one row of {@code type} takes as an array of boxed values. */
    static long rowBytes(RelDataType type) {
        long bytes = 16 + 8;
        for (RelDataTypeField f : type.getFieldList()) {
            bytes += 8 + valueBytes(f.getType());
        }
        return bytes;
    }

    private static long valueBytes(RelDataType type) {
        if (type.isStruct()) {
            return rowBytes(type);
        }
        return switch (type.getSqlTypeName()) {
            case BOOLEAN -> 0;
            case TINYINT, SMALLINT, INTEGER, DATE, TIME -> 16;
            case BIGINT, FLOAT, REAL, DOUBLE, TIMESTAMP, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> 24;
            case DECIMAL -> 40;
            case CHAR, VARCHAR -> 48 + Math.min(Math.max(type.getPrecision(), 0), 32);
            case BINARY, VARBINARY -> 48;
            default -> 32;
        };
    }
}

package io.tributary.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Prints a stream plan for {@code EXPLAIN CREATE MATERIALIZED VIEW}, in RisingWave's style: the
 * plan cut into fragments at its exchanges (fragment 0 holds the materialize; the others are
 * numbered as their exchanges come in pre-order), each fragment a tree of operators with their
 * parameters, stream key, output distribution and state tables. An exchange shows in the fragment
 * that reads it, as a leaf naming the fragment it reads from. Stateless.
 */
public final class PlanPrinter {
    private PlanPrinter() {}

    /**
     * @param stateTableIds the plan's state table ids in {@link StatePlan} order, or null before
     *     they are allocated (state tables then show as {@code #0}, {@code #1} ... in that order)
     * @return one line per fragment header and per operator
     */
    public static List<String> explain(MaterializeNode root, int[] stateTableIds) {
        int needed = StatePlan.stateTableCount(root);
        if (stateTableIds != null && stateTableIds.length != needed) {
            throw new IllegalArgumentException("the plan has " + needed + " state tables, not " + stateTableIds.length);
        }
        Walk walk = new Walk(stateTableIds);
        walk.fragments.add(new ArrayList<>());
        walk.visit(root, 0, "", "");
        List<String> out = new ArrayList<>();
        for (int f = 0; f < walk.fragments.size(); f++) {
            out.add("Fragment " + f);
            out.addAll(walk.fragments.get(f));
        }
        return out;
    }

    /** One pre-order pass: it numbers fragments and state tables in the order the plan defines them. */
    private static final class Walk {
        private final int[] stateTableIds;
        private final List<List<String>> fragments = new ArrayList<>();
        private int nextStateTable;

        Walk(int[] stateTableIds) {
            this.stateTableIds = stateTableIds;
        }

        /**
         * @param prefix what precedes this node's line (tree branches)
         * @param childPrefix what precedes the lines of its inputs' subtrees
         */
        void visit(StreamNode node, int fragment, String prefix, String childPrefix) {
            List<String> lines = fragments.get(fragment);
            if (node instanceof ExchangeNode exchange) {
                int source = fragments.size();
                fragments.add(new ArrayList<>());
                lines.add(prefix + "StreamExchange { dist: " + exchange.distribution() + " } from fragment " + source);
                visit(exchange.input(), source, "", "");
                return;
            }
            lines.add(prefix + describe(node) + " }");
            List<StreamNode> inputs = node.inputs();
            for (int i = 0; i < inputs.size(); i++) {
                boolean last = i == inputs.size() - 1;
                visit(inputs.get(i), fragment, childPrefix + (last ? "└─" : "├─"), childPrefix + (last ? "  " : "│ "));
            }
        }

        /** The operator's name and parameters, without the closing brace. */
        private String describe(StreamNode node) {
            StringBuilder b = new StringBuilder(operator(node));
            b.append(", stream key: ").append(columns(node.streamKey()));
            b.append(", dist: ").append(node.distribution());
            int count = node.stateTableCount();
            if (count > 0) {
                List<String> tables = new ArrayList<>();
                for (int i = 0; i < count; i++, nextStateTable++) {
                    tables.add(
                            stateTableIds == null
                                    ? "#" + nextStateTable
                                    : Integer.toString(stateTableIds[nextStateTable]));
                }
                b.append(", state tables: ").append(tables);
            }
            return b.toString();
        }
    }

    /**
     * One operator as EXPLAIN prints it, e.g. {@code StreamFilter { condition: ... }}, without
     * stream key, distribution or state tables; for drawing a plan node by node.
     *
     * @throws IllegalStateException for an {@link ExchangeNode}, which is an edge between fragments
     */
    public static String operatorText(StreamNode node) {
        return operator(node) + " }";
    }

    private static String operator(StreamNode node) {
        if (node instanceof SourceNode s) {
            return "StreamSource { relation: " + s.relationName() + ", columns: " + names(s.fields());
        }
        if (node instanceof ProjectNode p) {
            return "StreamProject { exprs: " + p.exprs();
        }
        if (node instanceof FilterNode f) {
            return "StreamFilter { condition: " + f.condition();
        }
        if (node instanceof UnnestNode u) {
            return "StreamUnnest { array: " + u.array() + (u.outer() ? ", outer" : "");
        }
        if (node instanceof TemporalFilterNode t) {
            return "StreamTemporalFilter { time: " + t.time() + ", bounds: " + t.bounds();
        }
        if (node instanceof HashAggNode a) {
            return "StreamHashAgg { group: " + columns(a.groupKeys()) + ", aggs: " + a.calls()
                    + (a.cleaning() == null
                            ? ""
                            : ", cleaned when watermark >= $"
                                    + a.groupKeys()[a.cleaning().keyIndex()] + " + "
                                    + a.cleaning().lagMicros() + "us");
        }
        if (node instanceof HashJoinNode j) {
            return "StreamHashJoin { type: " + j.kind().name().toLowerCase(java.util.Locale.ROOT) + ", on: "
                    + joinKeys(j) + (j.condition() == null ? "" : ", condition: " + j.condition())
                    + (j.cleaning() == null
                            ? ""
                            : ", cleaned when watermarks >= $"
                                    + j.leftKeys()[j.cleaning().keyIndex()] + " + "
                                    + j.cleaning().leftLagMicros() + "us and $"
                                    + (j.left().fields().size()
                                            + j.rightKeys()[j.cleaning().keyIndex()]) + " + "
                                    + j.cleaning().rightLagMicros() + "us")
                    + (j.intervalCleaning() == null ? "" : intervalCleaning(j));
        }
        if (node instanceof TemporalJoinNode t) {
            StringBuilder on = new StringBuilder();
            for (int i = 0; i < t.rightKey().length; i++) {
                on.append(i == 0 ? "[$" : ", $")
                        .append(t.lookupColumns()[i])
                        .append(" = ")
                        .append(t.rightTableName())
                        .append('.')
                        .append(t.rightFields().get(t.rightKey()[i]).name());
            }
            return "StreamTemporalJoin { type: " + t.kind().name().toLowerCase(java.util.Locale.ROOT) + ", lookup: "
                    + on + "]" + (t.condition() == null ? "" : ", condition: " + t.condition())
                    + (t.memoized() ? "" : ", append-only");
        }
        if (node instanceof UnionNode u) {
            return "StreamUnion { inputs: " + u.inputs().size();
        }
        if (node instanceof TopNNode t) {
            return "StreamTopN { order: " + t.order() + ", limit: " + t.limit()
                    + (t.offset() > 0 ? ", offset: " + t.offset() : "");
        }
        if (node instanceof OverWindowNode w) {
            return "StreamOverWindow { partition: " + columns(w.partitionKeys()) + ", order: " + w.order()
                    + ", frame: " + w.frame() + ", calls: " + w.calls()
                    + (w.limitCall() >= 0 ? ", rank limit: " + w.limit() : "")
                    + (w.cleaning() == null
                            ? ""
                            : ", sessions cleaned when watermark > last $"
                                    + w.cleaning().timeColumn() + " + "
                                    + w.cleaning().gapMillis() + "ms");
        }
        if (node instanceof MaterializeNode m) {
            return "StreamMaterialize { relation: " + m.relationName() + ", columns: " + names(m.fields());
        }
        throw new IllegalStateException("exchanges are printed as fragment edges, not " + node);
    }

    private static String names(List<Field> fields) {
        return fields.stream().map(Field::name).collect(Collectors.joining(", ", "[", "]"));
    }

    private static String columns(int[] columns) {
        return Arrays.stream(columns).mapToObj(c -> "$" + c).collect(Collectors.joining(", ", "[", "]"));
    }

    /** Right key columns are numbered as in the joined row, like the join's condition. */
    private static String joinKeys(HashJoinNode j) {
        int offset = j.left().fields().size();
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < j.leftKeys().length; i++) {
            keys.add("$" + j.leftKeys()[i] + (j.nullSafe()[i] ? " IS NOT DISTINCT FROM $" : " = $")
                    + (j.rightKeys()[i] + offset));
        }
        return keys.toString();
    }

    /** EXPLAIN's words for an interval join's cleaning: when each cleaned side's rows go. */
    private static String intervalCleaning(HashJoinNode j) {
        IntervalJoinCleaning c = j.intervalCleaning();
        int right = j.left().fields().size() + c.rightColumn();
        StringBuilder out = new StringBuilder(", interval cleaning: $")
                .append(c.leftColumn())
                .append(" - $")
                .append(right)
                .append(" in [")
                .append(c.cleansLeft() ? c.minDifferenceMicros() + "us" : "-inf")
                .append(", ")
                .append(c.cleansRight() ? c.maxDifferenceMicros() + "us" : "inf")
                .append("], lags ")
                .append(c.leftLagMicros())
                .append("us and ")
                .append(c.rightLagMicros())
                .append("us");
        return out.toString();
    }
}

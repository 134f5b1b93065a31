package io.tributary.meta.system;

import io.tributary.catalog.TableDef;
import io.tributary.meta.ddl.DdlController;
import io.tributary.plan.ExchangeNode;
import io.tributary.plan.MaterializeNode;
import io.tributary.plan.PlanPrinter;
import io.tributary.plan.StreamNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A view's stream plan as a graph to draw: operators grouped into fragments (the parts between
 * exchanges, each run by the view's parallel actors), the edges data flows along, and the state
 * tables each operator keeps. Fragments and state tables are numbered as EXPLAIN numbers them
 * (pre-order). Immutable.
 *
 * @param nodes the operators; exchanges are not nodes but edges marked {@code exchange}
 * @param edges from an input operator to the operator consuming it
 * @param fragmentCount how many fragments the plan has
 */
public record PlanGraph(List<Node> nodes, List<Edge> edges, int fragmentCount) {
    /**
     * @param id the node's number in pre-order
     * @param fragment the fragment running it
     * @param operator e.g. {@code StreamHashAgg}
     * @param text the operator as EXPLAIN prints it
     * @param stateTables the ids of the state tables it keeps, empty for stateless operators
     */
    public record Node(int id, int fragment, String operator, String text, List<Integer> stateTables) {}

    /** @param exchange null within a fragment, else the exchange's distribution (e.g. {@code HASH[0]}) */
    public record Edge(int from, int to, String exchange) {}

    /**
     * The graph of the plan view {@code view} runs (planned again from its query), or empty when
     * it is no longer a view.
     *
     * @throws io.tributary.common.TributaryException when its query no longer plans
     */
    public static Optional<PlanGraph> ofView(DdlController ddl, TableDef view) {
        return ddl.viewPlan(view.name()).map(plan -> of(plan.root(), view.stateTableIds()));
    }

    /**
     * Builds the graph of {@code root}.
     *
     * @param stateTableIds the view's state table ids in plan order ({@code TableDef.stateTableIds})
     */
    public static PlanGraph of(MaterializeNode root, int[] stateTableIds) {
        Builder b = new Builder(stateTableIds);
        b.visit(root, 0, -1, null);
        return new PlanGraph(List.copyOf(b.nodes), List.copyOf(b.edges), b.fragments);
    }

    /** One pre-order pass numbering nodes, fragments and state tables as {@code PlanPrinter} does. */
    private static final class Builder {
        private final int[] stateTableIds;
        private final List<Node> nodes = new ArrayList<>();
        private final List<Edge> edges = new ArrayList<>();
        private int fragments = 1;
        private int nextStateTable;

        Builder(int[] stateTableIds) {
            this.stateTableIds = stateTableIds;
        }

        void visit(StreamNode node, int fragment, int consumer, String exchange) {
            if (node instanceof ExchangeNode e) {
                int source = fragments++;
                visit(e.input(), source, consumer, e.distribution().toString());
                return;
            }
            int id = nodes.size();
            List<Integer> tables = new ArrayList<>();
            for (int i = 0; i < node.stateTableCount(); i++, nextStateTable++) {
                tables.add(nextStateTable < stateTableIds.length ? stateTableIds[nextStateTable] : -1);
            }
            String text = PlanPrinter.operatorText(node);
            nodes.add(new Node(id, fragment, text.substring(0, text.indexOf(' ')), text, List.copyOf(tables)));
            if (consumer >= 0) {
                edges.add(new Edge(id, consumer, exchange));
            }
            for (StreamNode input : node.inputs()) {
                visit(input, fragment, id, null);
            }
        }
    }
}

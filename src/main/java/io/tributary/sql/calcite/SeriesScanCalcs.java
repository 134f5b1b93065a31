package io.tributary.sql.calcite;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.adapter.enumerable.EnumerableTableFunctionScan;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.tools.Program;

/**
 * Puts an identity calculation above each one-column table function scan ({@code generate_series},
 * {@code unnest} of a series) whose parent is not one. Such a scan yields one-element arrays, but
 * Calcite's sort, limit and set operators above it take a one-column row to be the bare value, so
 * {@code SELECT g FROM generate_series(1, 3) g ORDER BY g DESC} failed with a ClassCastException
 * (XX000); a calculation reads the arrays and hands on bare values. A planning program run after
 * the cost-based planner on the session's thread.
 */
final class SeriesScanCalcs {
    private SeriesScanCalcs() {}

    /** The program; a plan without such a scan comes back unchanged. */
    static Program after() {
        return (planner, rel, traits, materializations, lattices) -> withCalcs(rel);
    }

    private static RelNode withCalcs(RelNode rel) {
        List<RelNode> inputs = rel.getInputs();
        List<RelNode> adapted = new ArrayList<>(inputs.size());
        boolean changed = false;
        for (RelNode input : inputs) {
            RelNode next = withCalcs(input);
            if (next instanceof EnumerableTableFunctionScan scan
                    && scan.getRowType().getFieldCount() == 1
                    && !(rel instanceof EnumerableCalc)) {
                next = EnumerableCalc.create(scan, RexProgram.createIdentity(scan.getRowType()));
            }
            changed |= next != input;
            adapted.add(next);
        }
        return changed ? rel.copy(rel.getTraitSet(), adapted) : rel;
    }
}

package io.tributary.meta.system;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.TableDef;
import io.tributary.meta.ddl.DdlController;
import io.tributary.stream.runtime.OperatorRows;
import java.util.ArrayList;
import java.util.List;

/**
 * The rows one operator of a running materialized view took in and gave out since this server
 * process started its job, summed over the operator's parallel instances. {@code node} and
 * {@code fragment} are the numbers of {@link PlanGraph} (and EXPLAIN). Counts only grow while the
 * job runs; they start from zero when the job is rebuilt (a restart, a failed epoch, ALTER ...
 * PARALLELISM). Immutable.
 *
 * @param operator e.g. {@code StreamFilter}
 */
public record ViewOperatorRows(String view, int node, int fragment, String operator, long rowsIn, long rowsOut) {
    /** The operators of view {@code view}, in plan graph order; empty when it runs no job. Any thread. */
    public static List<ViewOperatorRows> of(DdlController ddl, TableDef view) {
        List<OperatorRows> counts = ddl.operatorRows(view.id());
        List<ViewOperatorRows> out = new ArrayList<>(counts.size());
        for (OperatorRows r : counts) {
            out.add(new ViewOperatorRows(view.name(), r.node(), r.fragment(), r.operator(), r.rowsIn(), r.rowsOut()));
        }
        return out;
    }

    /** The operators of every materialized view with a running job, view by view. Any thread. */
    public static List<ViewOperatorRows> all(DdlController ddl, Catalog catalog) {
        List<ViewOperatorRows> out = new ArrayList<>();
        for (TableDef t : catalog.tables()) {
            if (t.isView()) {
                out.addAll(of(ddl, t));
            }
        }
        return out;
    }
}

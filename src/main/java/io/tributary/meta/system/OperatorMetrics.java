package io.tributary.meta.system;

import io.tributary.catalog.Catalog;
import io.tributary.common.metrics.MetricSet;
import io.tributary.meta.ddl.DdlController;

/**
 * Per operator of every running materialized view: the rows it took in and gave out since its
 * job started ({@link ViewOperatorRows}). The {@code operator} label is the operator's plan graph
 * number and name ({@code 2:StreamFilter}), so two operators of one kind in a fragment stay apart.
 */
final class OperatorMetrics implements MetricSet {
    private final DdlController ddl;
    private final Catalog catalog;

    OperatorMetrics(DdlController ddl, Catalog catalog) {
        this.ddl = ddl;
        this.catalog = catalog;
    }

    private static final String HELP =
            "Rows an operator gave out (direction out) or took in (direction in) since its job started";

    @Override
    public void sample(Samples out) {
        for (ViewOperatorRows r : ViewOperatorRows.all(ddl, catalog)) {
            String fragment = Integer.toString(r.fragment());
            String operator = r.node() + ":" + r.operator();
            out.counter("tributary_operator_rows", HELP, r.rowsOut(), labels(r, fragment, operator, "out"));
            out.counter("tributary_operator_rows", HELP, r.rowsIn(), labels(r, fragment, operator, "in"));
        }
    }

    private static String[] labels(ViewOperatorRows r, String fragment, String operator, String direction) {
        return new String[] {"view", r.view(), "fragment", fragment, "operator", operator, "direction", direction};
    }
}

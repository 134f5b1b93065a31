package io.tributary.meta.ddl;

import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;

/**
 * A view whose query no longer plans to the stream plan its state was built by (the planner
 * changed between versions): its job must not start, or state would be read by the wrong
 * operators. The view stays, unreadable, until it is dropped.
 */
final class PlanChanged extends TributaryException {
    static final String HINT = "Drop the materialized view and create it again.";

    PlanChanged(TableDef view) {
        super(
                SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE,
                "materialized view \"" + view.name()
                        + "\" is not maintained: its query no longer plans to the stream plan its state was built with",
                0,
                null,
                HINT,
                null);
    }

    /** The view's query no longer plans at all ({@code refused}: the planner's error now). */
    PlanChanged(TableDef view, TributaryException refused) {
        super(
                SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE,
                "materialized view \"" + view.name() + "\" is not maintained: its query no longer plans ("
                        + refused.getMessage() + ")",
                0,
                null,
                HINT,
                null);
    }
}

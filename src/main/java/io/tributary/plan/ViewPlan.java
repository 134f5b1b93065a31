package io.tributary.plan;

import io.tributary.catalog.ColumnDef;
import java.util.List;

/**
 * A planned materialized view: its stream plan (topped by the {@link MaterializeNode} writing the
 * view), the view's columns (the query's output columns, then hidden stream-key columns the query
 * does not select), its primary key (the stream key) and the ids of the relations it reads.
 */
public record ViewPlan(MaterializeNode root, List<ColumnDef> columns, int[] primaryKey, int[] dependsOn) {}

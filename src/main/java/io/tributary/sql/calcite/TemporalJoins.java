package io.tributary.sql.calcite;

import io.tributary.catalog.TableDef;
import io.tributary.common.TributaryException;
import io.tributary.plan.Distribution;
import io.tributary.plan.Field;
import io.tributary.plan.JoinKind;
import io.tributary.plan.ScalarExpr;
import io.tributary.plan.StreamNode;
import io.tributary.plan.TemporalJoinNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Snapshot;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Plans {@code JOIN t FOR SYSTEM_TIME AS OF PROCTIME()} (Calcite's {@link Snapshot} on a join's
 * right side) as a {@link TemporalJoinNode}, with RisingWave's rules: an inner or LEFT join, the
 * right side a table or materialized view with a primary key, and the condition equating every
 * primary-key column with a left expression. Filters Calcite pushed onto the right side join the
 * condition (for the joins allowed, a condition on the right side alone means the same in ON).
 * Stateless; called by {@link StreamPlanBuilder} on the planning thread.
 */
final class TemporalJoins {
    /** The name of the processing-time function, RisingWave's {@code PROCTIME()}. */
    static final String PROCTIME = "PROCTIME";

    /**
     * {@code PROCTIME()} for the view planner's validator: a niladic TIMESTAMP WITH LOCAL TIME ZONE,
     * which is what Calcite's {@code FOR SYSTEM_TIME AS OF} accepts; only a temporal join plans it.
     */
    static final SqlFunction PROCTIME_FUNCTION = new SqlFunction(
            PROCTIME,
            SqlKind.OTHER_FUNCTION,
            ReturnTypes.explicit(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, 6),
            null,
            OperandTypes.NILADIC,
            SqlFunctionCategory.TIMEDATE);

    private TemporalJoins() {}

    /** The snapshot under {@code right}'s filters, or null when the join is not a temporal one. */
    static Snapshot snapshotOf(RelNode right) {
        RelNode node = right;
        while (node instanceof Filter f) {
            node = f.getInput();
        }
        return node instanceof Snapshot s ? s : null;
    }

    /**
     * Whether {@code rel} only ever inserts rows: projections and filters of a source relation
     * (CREATE SOURCE), which takes no DML. Then no left row is ever retracted and the join needs no memo.
     */
    private static boolean appendsOnly(RelNode rel) {
        RelNode node = rel;
        while (node instanceof Project || node instanceof Filter) {
            node = node.getInput(0);
        }
        CatalogTable table = node instanceof TableScan scan ? scan.getTable().unwrap(CatalogTable.class) : null;
        return table != null && table.table().isSource();
    }

    /** 0A000 for a snapshot anywhere but on a join's right side. */
    static TributaryException misplaced() {
        return UnsupportedInViews.error("FOR SYSTEM_TIME AS OF outside the right side of a join is");
    }

    /**
     * @param left the translated left side
     * @param relations where the right table's id is added: the view depends on it
     */
    static StreamPlanBuilder.Translated plan(
            Join join,
            Snapshot snapshot,
            StreamPlanBuilder.Translated left,
            ExpressionCompiler expressions,
            RexBuilder rexBuilder,
            Set<Integer> relations) {
        if (!(snapshot.getPeriod() instanceof RexCall call)
                || !call.getOperator().getName().equalsIgnoreCase(PROCTIME)) {
            throw UnsupportedInViews.error("FOR SYSTEM_TIME AS OF anything but PROCTIME() is");
        }
        JoinKind kind = switch (join.getJoinType()) {
            case INNER -> JoinKind.INNER;
            case LEFT -> JoinKind.LEFT;
            default ->
                throw UnsupportedInViews.error(
                        join.getJoinType().name() + " temporal joins (only inner and LEFT joins) are");
        };
        if (!(snapshot.getInput() instanceof TableScan scan) || scan.getTable().unwrap(CatalogTable.class) == null) {
            throw UnsupportedInViews.error("FOR SYSTEM_TIME AS OF on anything but a table or materialized view is");
        }
        CatalogTable table = scan.getTable().unwrap(CatalogTable.class);
        TableDef def = table.table();
        int leftFieldCount = join.getLeft().getRowType().getFieldCount();
        List<RexNode> conjuncts = new ArrayList<>();
        conjuncts.add(join.getCondition());
        for (RelNode r = join.getRight(); r instanceof Filter f; r = f.getInput()) {
            conjuncts.add(RexUtil.shift(f.getCondition(), leftFieldCount));
        }
        RexNode condition = RexUtil.composeConjunction(rexBuilder, conjuncts);
        JoinInfo info = JoinInfo.of(join.getLeft(), snapshot, condition);
        int[] visible = table.columnIndexes();
        int[] key = def.primaryKey();
        int[] lookup = new int[key.length];
        for (int k = 0; k < key.length; k++) {
            int found = -1;
            for (int i = 0; i < info.rightKeys.size() && !def.hasRowId(); i++) {
                if (visible[info.rightKeys.get(i)] == key[k]) {
                    found = i;
                    break;
                }
            }
            if (found < 0) {
                throw UnsupportedInViews.error("a temporal join whose condition does not equate every primary-key"
                        + " column of \"" + def.name() + "\" with the left side (it must be a table or materialized"
                        + " view with a primary key) is");
            }
            RelDataType lt = join.getLeft()
                    .getRowType()
                    .getFieldList()
                    .get(info.leftKeys.get(found))
                    .getType();
            RelDataType rt = snapshot.getRowType()
                    .getFieldList()
                    .get(info.rightKeys.get(found))
                    .getType();
            if (!ViewRewrites.sameKeyEncoding(lt, rt)) {
                throw UnsupportedInViews.error("a temporal join looking up " + rt + " by " + lt + " is");
            }
            lookup[k] = left.columns()[info.leftKeys.get(found)];
        }
        relations.add(def.id());
        StreamNode l = StreamPlanBuilder.exchange(
                left.node(), Distribution.hash(left.node().streamKey()));
        int leftWidth = l.fields().size();
        List<Field> rightFields =
                def.columns().stream().map(c -> new Field(c.name(), c.type())).toList();
        List<Field> fields = new ArrayList<>(l.fields());
        fields.addAll(rightFields);
        int[] columns = new int[left.columns().length + visible.length];
        System.arraycopy(left.columns(), 0, columns, 0, left.columns().length);
        for (int i = 0; i < visible.length; i++) {
            columns[left.columns().length + i] = leftWidth + visible[i];
        }
        ScalarExpr compiled = condition.isAlwaysTrue() ? null : expressions.compile(condition, fields, columns);
        TemporalJoinNode node = new TemporalJoinNode(
                l,
                kind,
                def.id(),
                def.name(),
                rightFields,
                key.clone(),
                lookup,
                compiled,
                List.copyOf(fields),
                !appendsOnly(join.getLeft()));
        return new StreamPlanBuilder.Translated(node, columns);
    }
}

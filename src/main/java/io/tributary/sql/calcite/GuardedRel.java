package io.tributary.sql.calcite;

import io.tributary.sql.StatementControl;
import java.lang.reflect.Method;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.Types;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;

/**
 * A pass-through physical operator placed by {@link GuardProgram} on every edge of an enumerable
 * plan: it hands its input's rows on unchanged, checking the statement's {@link StatementControl}
 * before each one and, in front of a materializing operator, accounting the memory it will hold
 * ({@link GuardedEnumerable}). Added after planning, so no rule ever sees it.
 */
final class GuardedRel extends SingleRel implements EnumerableRel {
    private static final Method WRAP = Types.lookupMethod(
            GuardedEnumerable.class,
            "of",
            org.apache.calcite.linq4j.Enumerable.class,
            StatementControl.class,
            int.class,
            long.class,
            long.class,
            int[].class);

    private final StatementControl control;
    private final int mode;
    private final long bytesPerRow;
    private final long maxRows;
    private final int[] keys;

    /**
     * @param mode {@link GuardedEnumerable#STREAM}, {@link GuardedEnumerable#MATERIALIZED},
     *     {@link GuardedEnumerable#GROUPED} or {@link GuardedEnumerable#SPOOLED}
     * @param bytesPerRow estimated heap bytes of one input row (or group) held by the consumer
     * @param maxRows for MATERIALIZED, the most rows the consumer keeps
     * @param keys for GROUPED, the fields forming the group key
     */
    GuardedRel(RelNode input, StatementControl control, int mode, long bytesPerRow, long maxRows, int[] keys) {
        super(input.getCluster(), input.getTraitSet(), input);
        this.control = control;
        this.mode = mode;
        this.bytesPerRow = bytesPerRow;
        this.maxRows = maxRows;
        this.keys = keys;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new GuardedRel(sole(inputs), control, mode, bytesPerRow, maxRows, keys);
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return super.explainTerms(pw).item("mode", mode).item("bytesPerRow", bytesPerRow);
    }

    @Override
    public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
        BlockBuilder builder = new BlockBuilder();
        boolean grouped = mode == GuardedEnumerable.GROUPED;
        Result input = implementor.visitChild(this, 0, (EnumerableRel) getInput(), grouped ? Prefer.ARRAY : pref);
        Expression rows = builder.append("guarded", input.block);
        PhysType physType = input.physType;
        if (grouped && input.format == JavaRowFormat.CUSTOM && getRowType().getFieldCount() > keys.length) {
            // hashing the group key needs its fields; a row of a generated class only hashes whole
            physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(), JavaRowFormat.ARRAY, false);
            rows = builder.append("arrays", input.physType.convertTo(rows, JavaRowFormat.ARRAY));
        }
        Expression[] keyExpressions = new Expression[keys.length];
        for (int i = 0; i < keys.length; i++) {
            keyExpressions[i] = Expressions.constant(keys[i]);
        }
        builder.add(Expressions.return_(
                null,
                Expressions.call(
                        WRAP,
                        rows,
                        implementor.stash(control, StatementControl.class),
                        Expressions.constant(mode),
                        Expressions.constant(bytesPerRow),
                        Expressions.constant(maxRows),
                        Expressions.newArrayInit(int.class, keyExpressions))));
        return implementor.result(physType, builder.toBlock());
    }
}

package io.tributary.sql.calcite;

import io.tributary.common.types.DataType;
import io.tributary.plan.Distribution;
import io.tributary.plan.Field;
import io.tributary.plan.FilterNode;
import io.tributary.plan.HashAggNode;
import io.tributary.plan.HashJoinNode;
import io.tributary.plan.InputRef;
import io.tributary.plan.Literal;
import io.tributary.plan.ProjectNode;
import io.tributary.plan.ScalarExpr;
import io.tributary.plan.StreamNode;
import io.tributary.plan.TopNNode;
import io.tributary.plan.UnionNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Projections that keep a stream's bookkeeping right: the input's stream key survives (appended
 * where the query drops it), the input's distribution is carried over only where its columns pass
 * through unchanged, and picking columns of a projection costs no second operator. Stateless.
 */
final class StreamProjections {
    private StreamProjections() {}

    /**
     * A projection computing {@code exprs}, named {@code names}, with the input's stream-key
     * columns the expressions drop appended as columns named {@code _keyN}. Over a projection, a
     * projection that only picks columns and constants becomes one node computing the picked
     * expressions.
     */
    static ProjectNode project(StreamNode input, List<ScalarExpr> exprs, List<String> names) {
        List<ScalarExpr> all = new ArrayList<>(exprs);
        List<Field> fields = new ArrayList<>();
        Set<String> used = new HashSet<>(names);
        for (int i = 0; i < exprs.size(); i++) {
            fields.add(new Field(names.get(i), exprs.get(i).type()));
        }
        int[] inputKey = input.streamKey();
        int[] key = new int[inputKey.length];
        for (int j = 0; j < inputKey.length; j++) {
            int pos = positionOf(all, inputKey[j]);
            if (pos < 0) {
                DataType type = input.fields().get(inputKey[j]).type();
                pos = all.size();
                all.add(new InputRef(inputKey[j], type));
                fields.add(new Field(freshName(used), type));
            }
            key[j] = pos;
        }
        Distribution distribution = carried(input.distribution(), all);
        if (input instanceof ProjectNode inner
                && all.stream().allMatch(e -> e instanceof InputRef || e instanceof Literal)) {
            // the key and distribution stay valid: the fused node outputs the very same rows
            List<ScalarExpr> picked = all.stream()
                    .map(e -> e instanceof InputRef r ? inner.exprs().get(r.index()) : e)
                    .toList();
            return new ProjectNode(inner.input(), picked, List.copyOf(fields), key, distribution);
        }
        return new ProjectNode(input, List.copyOf(all), List.copyOf(fields), key, distribution);
    }

    /** The input's distribution in the output's columns, when its key columns pass through unchanged. */
    private static Distribution carried(Distribution in, List<ScalarExpr> exprs) {
        if (in.kind() != Distribution.Kind.HASH) {
            return in;
        }
        int[] keys = new int[in.keys().length];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = positionOf(exprs, in.keys()[i]);
            if (keys[i] < 0) {
                return Distribution.SOME;
            }
        }
        return Distribution.hash(keys);
    }

    /** The first output that is input column {@code column} unchanged, or -1. */
    private static int positionOf(List<ScalarExpr> exprs, int column) {
        for (int i = 0; i < exprs.size(); i++) {
            if (exprs.get(i) instanceof InputRef r && r.index() == column) {
                return i;
            }
        }
        return -1;
    }

    /**
     * {@code node} with its columns named as {@code fields} (of the same types), where that needs
     * no extra operator; else null.
     */
    static StreamNode renamed(StreamNode node, List<Field> fields) {
        if (node.fields().equals(fields)) {
            return node;
        }
        if (node instanceof ProjectNode p) {
            return new ProjectNode(p.input(), p.exprs(), fields, p.streamKey(), p.distribution());
        }
        if (node instanceof HashAggNode a) {
            return new HashAggNode(a.input(), a.groupKeys(), a.calls(), fields, a.cleaning());
        }
        if (node instanceof HashJoinNode j) {
            return new HashJoinNode(
                    j.left(),
                    j.right(),
                    j.kind(),
                    j.leftKeys(),
                    j.rightKeys(),
                    j.nullSafe(),
                    j.condition(),
                    fields,
                    j.streamKey(),
                    j.cleaning(),
                    j.intervalCleaning());
        }
        if (node instanceof UnionNode u) {
            return new UnionNode(u.inputs(), fields, u.streamKey(), u.distribution());
        }
        if (node instanceof FilterNode f) {
            StreamNode input = renamed(f.input(), fields);
            return input == null ? null : new FilterNode(input, f.condition());
        }
        if (node instanceof TopNNode t) {
            StreamNode input = renamed(t.input(), fields);
            return input == null ? null : new TopNNode(input, t.order(), t.offset(), t.limit());
        }
        return null;
    }

    /** Whether {@code node} passes its input's rows on unchanged (names aside). */
    static boolean isIdentity(ProjectNode node) {
        List<ScalarExpr> exprs = node.exprs();
        if (exprs.size() != node.input().fields().size()) {
            return false;
        }
        for (int i = 0; i < exprs.size(); i++) {
            if (!(exprs.get(i) instanceof InputRef r) || r.index() != i) {
                return false;
            }
        }
        return true;
    }

    /** {@code _key0}, {@code _key1} ...: the first such name not in {@code used}, which it joins. */
    static String freshName(Set<String> used) {
        for (int n = 0; ; n++) {
            String name = "_key" + n;
            if (used.add(name)) {
                return name;
            }
        }
    }
}

package io.tributary.sql.calcite;

import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import io.tributary.common.types.TypeKind;
import io.tributary.plan.AggCall;
import io.tributary.plan.AggKind;
import io.tributary.plan.Distribution;
import io.tributary.plan.ExchangeNode;
import io.tributary.plan.Field;
import io.tributary.plan.FilterNode;
import io.tributary.plan.HashAggNode;
import io.tributary.plan.HashJoinNode;
import io.tributary.plan.InputRef;
import io.tributary.plan.IntervalJoinCleaning;
import io.tributary.plan.JoinCleaning;
import io.tributary.plan.JoinKind;
import io.tributary.plan.Literal;
import io.tributary.plan.MaterializeNode;
import io.tributary.plan.ProjectNode;
import io.tributary.plan.ScalarExpr;
import io.tributary.plan.SortKey;
import io.tributary.plan.SourceNode;
import io.tributary.plan.StreamNode;
import io.tributary.plan.TemporalFilterNode;
import io.tributary.plan.TopNNode;
import io.tributary.plan.UnionNode;
import io.tributary.plan.UnnestNode;
import io.tributary.plan.ViewPlan;
import io.tributary.plan.WindowCleaning;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.IntStream;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Intersect;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.Minus;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sample;
import org.apache.calcite.rel.core.Snapshot;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.core.Uncollect;
import org.apache.calcite.rel.core.Union;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * Translates a normalised relational plan ({@link ViewRewrites}) into a view's stream plan. Every node
 * gets a stream key (the columns that tell its rows apart, kept as hidden columns where the query
 * drops them) and an exchange wherever its input is not distributed the way the operator needs.
 * Anything it cannot maintain exactly fails with 0A000 naming the construct. One instance per
 * planned query; not thread-safe.
 */
final class StreamPlanBuilder {
    private final RexBuilder rexBuilder;
    private final ExpressionCompiler expressions;
    private final WindowPlans windows;
    private final SortedSet<Integer> relations = new TreeSet<>();
    private final WindowBounds windowBounds = new WindowBounds();

    /** EMIT ON WINDOW CLOSE: window aggregates emit each group once, when the watermark closes it. */
    private final boolean emitOnWindowClose;

    /** A scan of the query as written, standing in for branches Calcite proved empty; may be null. */
    private final TableScan emptyStandIn;

    /**
     * @param emptyStandIn a table the query reads, or null: a part of the query Calcite proves
     *     empty (a WHERE that is never true) becomes a filter that passes nothing over it, so the
     *     view still follows that table's epochs
     * @param emitOnWindowClose whether the view was declared EMIT ON WINDOW CLOSE
     * @param build whose comparisons and casts the view's expressions compute (this build's, or an
     *     earlier one's for a view it created)
     */
    StreamPlanBuilder(
            RexBuilder rexBuilder, TableScan emptyStandIn, boolean emitOnWindowClose, ViewPlanningBuild build) {
        this.rexBuilder = rexBuilder;
        this.emitOnWindowClose = emitOnWindowClose;
        this.expressions = new ExpressionCompiler(rexBuilder, build);
        this.windows = new WindowPlans(rexBuilder, expressions);
        this.emptyStandIn = emptyStandIn;
    }

    /**
     * A translated relational node: the stream node computing it, and for each of the relational
     * node's fields the column of the stream node's rows holding it. The stream node may have
     * further columns: stream-key columns the relational node does not show.
     */
    record Translated(StreamNode node, int[] columns) {
        /** The types of the relational node's fields, as its rows hold them. */
        List<DataType> columnTypes() {
            List<DataType> types = new ArrayList<>(columns.length);
            for (int c : columns) {
                types.add(node.fields().get(c).type());
            }
            return types;
        }
    }

    /**
     * Lays the translated query's rows out as the view stores them (its columns, then the stream
     * key's other columns, hidden) and writes them into the view, distributed by that key.
     *
     * @param names the view's column names, one per field of the query
     * @param types the view's column types, one per field of the query: {@link Translated#columnTypes}
     *     or types that differ from them only in what the stored values do not show ({@link
     *     ViewColumnModifiers})
     */
    ViewPlan materialize(Translated body, List<String> names, List<DataType> types, int viewId, String viewName) {
        StreamNode node = body.node();
        if (emitOnWindowClose) {
            checkEmitsOnClose(node);
        }
        List<ScalarExpr> visible = new ArrayList<>();
        for (int i = 0; i < body.columns().length; i++) {
            visible.add(new InputRef(body.columns()[i], types.get(i)));
        }
        ProjectNode layout = StreamProjections.project(node, visible, names);
        StreamNode top = layout;
        if (StreamProjections.isIdentity(layout)) {
            // a plain copy of the body's rows would only rename them
            StreamNode renamed = StreamProjections.renamed(layout.input(), layout.fields());
            top = renamed != null ? renamed : layout;
        }
        List<ColumnDef> columns = new ArrayList<>();
        for (int i = 0; i < layout.fields().size(); i++) {
            Field f = layout.fields().get(i);
            columns.add(new ColumnDef(f.name(), f.type(), false, i >= names.size()));
        }
        int[] key = layout.streamKey();
        MaterializeNode root = new MaterializeNode(exchange(top, Distribution.hash(key)), viewId, viewName);
        return new ViewPlan(root, List.copyOf(columns), key.clone(), relationsRead(), false);
    }

    /**
     * 0A000 unless the view's rows come from a window aggregate that emits on close through
     * projections and filters only, so each row is appended once and never changed.
     */
    private static void checkEmitsOnClose(StreamNode node) {
        while (node instanceof ProjectNode || node instanceof FilterNode || node instanceof ExchangeNode) {
            node = node.inputs().get(0);
        }
        if (!(node instanceof HashAggNode a
                && a.cleaning() != null
                && a.cleaning().emitOnClose())) {
            throw TributaryException.notSupported(
                    "EMIT ON WINDOW CLOSE on a view that is not a GROUP BY of a TUMBLE, HOP or SESSION window bound over a"
                            + " table with a watermark");
        }
    }

    /** The ids of the relations the translated plans read, ascending. */
    private int[] relationsRead() {
        return relations.stream().mapToInt(Integer::intValue).toArray();
    }

    Translated translate(RelNode rel) {
        if (rel instanceof TableScan scan) {
            return scan(scan);
        }
        if (rel instanceof Values values && values.getTuples().isEmpty() && emptyStandIn != null) {
            return nothing(values);
        }
        if (rel instanceof Project project) {
            return project(project);
        }
        if (rel instanceof Filter filter) {
            return filter(filter);
        }
        if (rel instanceof Aggregate aggregate) {
            return aggregate(aggregate);
        }
        if (rel instanceof Join join) {
            Snapshot snapshot = TemporalJoins.snapshotOf(join.getRight());
            return snapshot == null
                    ? join(join)
                    : TemporalJoins.plan(join, snapshot, translate(join.getLeft()), expressions, rexBuilder, relations);
        }
        if (rel instanceof Snapshot) {
            throw TemporalJoins.misplaced();
        }
        if (rel instanceof Correlate correlate) {
            LateralUnnests.Unnest unnest = LateralUnnests.of(correlate);
            if (unnest != null) {
                return unnest(correlate, unnest);
            }
        }
        if (rel instanceof Union union) {
            return union(union);
        }
        if (rel instanceof Sort sort) {
            return sort(sort);
        }
        if (rel instanceof Window window) {
            Translated windowed = windows.translate(window, translate(window.getInput()), null);
            windowBounds.windowed(windowed.node());
            return windowed;
        }
        if (rel instanceof TableFunctionScan scan && TimeWindows.isWindow(scan)) {
            Translated windowed = translate(TimeWindows.expand(scan, rexBuilder));
            windowBounds.windowScan(scan, windowed);
            return windowed;
        }
        throw UnsupportedInViews.error(construct(rel));
    }

    /** What to call a relational operator the planner has no stream operator for. */
    private static String construct(RelNode rel) {
        if (rel instanceof Values) {
            return "VALUES, SELECT without FROM and WHERE clauses that are never true are";
        }
        if (rel instanceof Intersect) {
            return "INTERSECT is";
        }
        if (rel instanceof Minus) {
            return "EXCEPT is";
        }
        if (rel instanceof Correlate) {
            return "correlated subqueries are";
        }
        if (rel instanceof TableFunctionScan) {
            return "table functions are";
        }
        if (rel instanceof Uncollect) {
            return "UNNEST is";
        }
        if (rel instanceof Sample) {
            return "TABLESAMPLE is";
        }
        return "the relational operator " + rel.getRelTypeName() + " is";
    }

    /** The relation's changes with every column, then only the columns Calcite shows and the key. */
    private Translated scan(TableScan scan) {
        CatalogTable table = scan.getTable().unwrap(CatalogTable.class);
        if (table == null) {
            throw new TributaryException(SqlState.INTERNAL_ERROR, "not a catalog relation: " + scan.getTable());
        }
        TableDef def = table.table();
        relations.add(def.id());
        List<Field> fields =
                def.columns().stream().map(c -> new Field(c.name(), c.type())).toList();
        SourceNode source =
                new SourceNode(def.id(), def.name(), fields, def.primaryKey().clone());
        windowBounds.tableScan(def, source);
        int[] visible = table.columnIndexes();
        List<ScalarExpr> exprs = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int c : visible) {
            exprs.add(new InputRef(c, fields.get(c).type()));
            names.add(fields.get(c).name());
        }
        return project(source, exprs, names);
    }

    /** {@code in} with a last column that is always TRUE, so a NULL there marks a NULL-padded row. */
    private Translated withPresence(Translated in) {
        List<Field> fields = in.node().fields();
        List<ScalarExpr> exprs = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
            exprs.add(new InputRef(i, fields.get(i).type()));
            names.add(fields.get(i).name());
        }
        exprs.add(new Literal(Boolean.TRUE, DataType.BOOLEAN));
        names.add("_present");
        return new Translated(StreamProjections.project(in.node(), exprs, names), in.columns());
    }

    /** No rows ever, with the fields of {@code values}: NULLs over a filter that passes nothing. */
    private Translated nothing(Values values) {
        Translated standIn = scan(emptyStandIn);
        FilterNode none = new FilterNode(standIn.node(), new Literal(Boolean.FALSE, DataType.BOOLEAN));
        List<ScalarExpr> exprs = values.getRowType().getFieldList().stream()
                .<ScalarExpr>map(f -> new Literal(null, TypeMapping.fromRelType(f.getType())))
                .toList();
        return project(none, exprs, values.getRowType().getFieldNames());
    }

    private Translated project(Project project) {
        Translated in = translate(project.getInput());
        List<ScalarExpr> exprs = project.getProjects().stream()
                .map(e -> expressions.compile(e, in.node().fields(), in.columns()))
                .toList();
        Translated out = project(in.node(), exprs, project.getRowType().getFieldNames());
        windowBounds.sessionEnds(in.node(), in.columns(), project.getProjects(), out.node());
        return out;
    }

    /**
     * A projection computing {@code exprs}, named {@code names}; the input's stream-key columns the
     * expressions drop are appended as hidden columns. An identity projection is no node at all.
     */
    private Translated project(StreamNode input, List<ScalarExpr> exprs, List<String> names) {
        ProjectNode node = StreamProjections.project(input, exprs, names);
        int[] columns = IntStream.range(0, exprs.size()).toArray();
        StreamNode out = StreamProjections.isIdentity(node) ? node.input() : node;
        windowBounds.projected(input, exprs, out);
        return new Translated(out, columns);
    }

    /**
     * The left rows, each followed by its array's elements ({@link UnnestNode}); the correlate's
     * columns are the left's, the element's and, {@code WITH ORDINALITY}, its position's.
     */
    private Translated unnest(Correlate correlate, LateralUnnests.Unnest unnest) {
        Translated left = translate(correlate.getLeft());
        ScalarExpr array = expressions.compile(unnest.array(), left.node().fields(), left.columns());
        RelDataType element =
                correlate.getRight().getRowType().getFieldList().get(0).getType();
        UnnestNode node = new UnnestNode(left.node(), array, TypeMapping.fromRelType(element), unnest.outer());
        int width = left.node().fields().size();
        int[] columns = Arrays.copyOf(left.columns(), left.columns().length + (unnest.ordinality() ? 2 : 1));
        columns[left.columns().length] = width;
        if (unnest.ordinality()) {
            columns[left.columns().length + 1] = width + 1;
        }
        return new Translated(node, columns);
    }

    private Translated filter(Filter filter) {
        if (filter.getInput() instanceof Window window) {
            WindowPlans.TopN topN = WindowPlans.topN(filter, window);
            if (topN != null) {
                Translated ranked = windows.translate(window, translate(window.getInput()), topN);
                return topN.rest() == null ? ranked : filter(ranked, topN.rest());
            }
        }
        return filter(translate(filter.getInput()), filter.getCondition());
    }

    private Translated filter(Translated in, RexNode rex) {
        TemporalFilters.Split temporal = TemporalFilters.split(rex);
        if (temporal != null) {
            return temporalFilter(in, temporal);
        }
        ScalarExpr condition = expressions.compile(rex, in.node().fields(), in.columns());
        if (condition instanceof Literal l && Boolean.TRUE.equals(l.value())) {
            return in;
        }
        FilterNode node = new FilterNode(in.node(), condition);
        windowBounds.filtered(in.node(), node);
        return new Translated(node, in.columns());
    }

    /**
     * The conditions that do not read the current time as a plain filter, then the bounds on the
     * row's time as a temporal filter on one actor.
     */
    private Translated temporalFilter(Translated in, TemporalFilters.Split split) {
        Translated rest =
                split.rest().isEmpty() ? in : filter(in, RexUtil.composeConjunction(rexBuilder, split.rest()));
        ScalarExpr time = expressions.compile(split.time(), rest.node().fields(), rest.columns());
        StreamNode input = exchange(rest.node(), Distribution.SINGLE);
        return new Translated(new TemporalFilterNode(input, time, split.bounds()), rest.columns());
    }

    private Translated aggregate(Aggregate aggregate) {
        if (aggregate.getGroupType() != Aggregate.Group.SIMPLE) {
            throw UnsupportedInViews.error("GROUPING SETS, ROLLUP and CUBE are");
        }
        Translated in = translate(aggregate.getInput());
        int[] groupKeys = aggregate.getGroupSet().asList().stream()
                .mapToInt(g -> in.columns()[g])
                .toArray();
        List<String> names = aggregate.getRowType().getFieldNames();
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < groupKeys.length; i++) {
            fields.add(
                    new Field(names.get(i), in.node().fields().get(groupKeys[i]).type()));
        }
        List<AggCall> calls = new ArrayList<>();
        for (AggregateCall call : aggregate.getAggCallList()) {
            AggCall translated = aggCall(call, in);
            fields.add(new Field(names.get(fields.size()), translated.type()));
            calls.add(translated);
        }
        StreamNode input =
                exchange(in.node(), groupKeys.length == 0 ? Distribution.SINGLE : Distribution.hash(groupKeys));
        WindowCleaning cleaning = windowBounds.cleaning(in.node(), groupKeys, emitOnWindowClose);
        HashAggNode node = new HashAggNode(input, groupKeys, List.copyOf(calls), List.copyOf(fields), cleaning);
        windowBounds.aggregated(in.node(), groupKeys, node);
        return new Translated(node, IntStream.range(0, fields.size()).toArray());
    }

    private static AggCall aggCall(AggregateCall call, Translated in) {
        String name = call.getAggregation().getName().toLowerCase(Locale.ROOT);
        if (call.distinctKeys != null) {
            throw UnsupportedInViews.error("WITHIN DISTINCT is");
        }
        List<Integer> args = call.getArgList();
        if (args.size() > 1) {
            throw UnsupportedInViews.error(name + " with several arguments is");
        }
        int arg = args.isEmpty() ? -1 : in.columns()[args.get(0)];
        DataType argType = arg < 0 ? null : in.node().fields().get(arg).type();
        boolean bool = argType != null && argType.kind() == TypeKind.BOOLEAN;
        AggKind kind = switch (call.getAggregation().getKind()) {
            case COUNT -> AggKind.COUNT;
            case SUM -> AggKind.SUM;
            case SUM0 -> AggKind.SUM0;
            // Calcite's BOOL_AND, EVERY and LOGICAL_AND are MIN over booleans (false < true); OR likewise MAX
            case MIN -> bool ? AggKind.BOOL_AND : AggKind.MIN;
            case MAX -> bool ? AggKind.BOOL_OR : AggKind.MAX;
            // IntervalCalls' sum over PostgreSQL's interval, summed field by field
            default -> {
                if (name.equals("pg_interval_sum")) {
                    yield AggKind.SUM;
                }
                throw UnsupportedInViews.error("the aggregate function " + IntervalCalls.pgName(name) + " is");
            }
        };
        if (arg < 0 && kind != AggKind.COUNT) {
            throw UnsupportedInViews.error(name + " without an argument is");
        }
        DataType type = switch (kind) {
            // the extreme is an input value: keep the column's exact type
            case MIN, MAX, BOOL_AND, BOOL_OR -> argType;
            default -> TypeMapping.fromRelType(call.getType());
        };
        int filter = call.filterArg >= 0 ? in.columns()[call.filterArg] : -1;
        return new AggCall(kind, arg, call.isDistinct(), filter, type);
    }

    private Translated join(Join join) {
        JoinKind kind = switch (join.getJoinType()) {
            case INNER -> JoinKind.INNER;
            case LEFT -> JoinKind.LEFT;
            case RIGHT -> JoinKind.RIGHT;
            case FULL -> JoinKind.FULL;
            default ->
                throw UnsupportedInViews.error(join.getJoinType().name().toLowerCase(Locale.ROOT)
                        + " joins (from IN and EXISTS subqueries) are");
        };
        JoinInfo info = JoinInfo.of(join.getLeft(), join.getRight(), join.getCondition());
        if (info.leftKeys.isEmpty()) {
            throw UnsupportedInViews.error("joins without an equality condition are");
        }
        // a side the join may pad with NULLs carries a TRUE column, NULL in padded rows: its key
        // columns may be NULL themselves (a NULL group key), so they cannot tell the two apart
        boolean leftPadded = kind == JoinKind.RIGHT || kind == JoinKind.FULL;
        boolean rightPadded = kind == JoinKind.LEFT || kind == JoinKind.FULL;
        Translated left = translate(join.getLeft());
        Translated right = translate(join.getRight());
        // window bounds are known on the translated sides; a presence column keeps their columns
        StreamNode boundedLeft = left.node();
        StreamNode boundedRight = right.node();
        if (leftPadded) {
            left = withPresence(left);
        }
        if (rightPadded) {
            right = withPresence(right);
        }
        int n = info.leftKeys.size();
        int[] leftKeys = new int[n];
        int[] rightKeys = new int[n];
        boolean[] nullSafe = new boolean[n];
        for (int i = 0; i < n; i++) {
            leftKeys[i] = left.columns()[info.leftKeys.get(i)];
            rightKeys[i] = right.columns()[info.rightKeys.get(i)];
            nullSafe[i] = !info.nullExclusionFlags.get(i);
            RelDataType lt = join.getLeft()
                    .getRowType()
                    .getFieldList()
                    .get(info.leftKeys.get(i))
                    .getType();
            RelDataType rt = join.getRight()
                    .getRowType()
                    .getFieldList()
                    .get(info.rightKeys.get(i))
                    .getType();
            if (!ViewRewrites.sameKeyEncoding(lt, rt)) {
                throw UnsupportedInViews.error("joining " + lt + " with " + rt + " is");
            }
        }
        int leftWidth = left.node().fields().size();
        int[] columns = new int[left.columns().length + right.columns().length];
        System.arraycopy(left.columns(), 0, columns, 0, left.columns().length);
        for (int i = 0; i < right.columns().length; i++) {
            columns[left.columns().length + i] = leftWidth + right.columns()[i];
        }
        JoinCleaning cleaning = windowBounds.joinCleaning(boundedLeft, leftKeys, boundedRight, rightKeys);
        RexNode remaining = info.getRemaining(rexBuilder);
        IntervalJoinCleaning intervalCleaning = cleaning != null || remaining.isAlwaysTrue()
                ? null
                : windowBounds.intervalCleaning(
                        boundedLeft,
                        left.columns(),
                        boundedRight,
                        right.columns(),
                        TimeDistances.of(remaining, join.getLeft().getRowType().getFieldCount()));
        boolean broadcast = DimensionJoins.broadcastsRight(
                kind, left.node(), leftKeys, right.node(), rightKeys, cleaning != null || intervalCleaning != null);
        StreamNode l = broadcast ? left.node() : exchange(left.node(), Distribution.hash(leftKeys));
        StreamNode r = broadcast
                ? new ExchangeNode(right.node(), Distribution.BROADCAST)
                : exchange(right.node(), Distribution.hash(rightKeys));
        List<Field> fields = new ArrayList<>(l.fields());
        fields.addAll(r.fields());
        ScalarExpr condition = remaining.isAlwaysTrue() ? null : expressions.compile(remaining, fields, columns);
        int[] streamKey = broadcast ? l.streamKey().clone() : hashJoinKey(kind, l, r, leftKeys, rightKeys);
        return new Translated(
                new HashJoinNode(
                        l,
                        r,
                        kind,
                        leftKeys,
                        rightKeys,
                        nullSafe,
                        condition,
                        List.copyOf(fields),
                        streamKey,
                        cleaning,
                        intervalCleaning),
                columns);
    }

    /**
     * The stream key of a hash join's output: both sides' stream keys, the join keys and the
     * padded sides' presence columns.
     */
    private static int[] hashJoinKey(JoinKind kind, StreamNode l, StreamNode r, int[] leftKeys, int[] rightKeys) {
        int leftWidth = l.fields().size();
        boolean leftPadded = kind == JoinKind.RIGHT || kind == JoinKind.FULL;
        boolean rightPadded = kind == JoinKind.LEFT || kind == JoinKind.FULL;
        // The join keys join the stream key: rows are routed to actors by them, so a row whose
        // join key changes is retracted by one actor and re-emitted by another; were the key not
        // part of the identity, the two changes could reach the view in either order. The side
        // that is never NULL-padded suffices (matched keys are equal).
        IntStream keyParts =
                IntStream.concat(Arrays.stream(l.streamKey()), Arrays.stream(shift(r.streamKey(), leftWidth)));
        if (kind != JoinKind.RIGHT) {
            keyParts = IntStream.concat(keyParts, Arrays.stream(leftKeys));
        }
        if (kind == JoinKind.RIGHT || kind == JoinKind.FULL) {
            keyParts = IntStream.concat(keyParts, Arrays.stream(shift(rightKeys, leftWidth)));
        }
        if (leftPadded) {
            keyParts = IntStream.concat(keyParts, IntStream.of(leftWidth - 1));
        }
        if (rightPadded) {
            keyParts = IntStream.concat(
                    keyParts, IntStream.of(leftWidth + r.fields().size() - 1));
        }
        return keyParts.distinct().toArray();
    }

    /**
     * UNION ALL: each input projected to the union's columns, then a branch number and one slot per
     * key column of every branch (NULL outside its own branch), so the union's stream key (branch,
     * slots) tells the rows of different branches apart.
     */
    private Translated union(Union union) {
        if (!union.all) {
            throw UnsupportedInViews.error("UNION without ALL is");
        }
        List<Translated> branches =
                union.getInputs().stream().map(this::translate).toList();
        List<RelDataType> types =
                union.getRowType().getFieldList().stream().map(f -> f.getType()).toList();
        int n = types.size();
        List<List<ScalarExpr>> values = new ArrayList<>();
        for (int b = 0; b < branches.size(); b++) {
            RelNode input = union.getInputs().get(b);
            List<ScalarExpr> exprs = new ArrayList<>();
            for (int f = 0; f < n; f++) {
                RelDataType own = input.getRowType().getFieldList().get(f).getType();
                RexNode ref = new RexInputRef(f, own);
                if (!SqlTypeUtil.equalSansNullability(rexBuilder.getTypeFactory(), own, types.get(f))) {
                    ref = rexBuilder.makeCast(
                            rexBuilder.getTypeFactory().createTypeWithNullability(types.get(f), own.isNullable()), ref);
                }
                exprs.add(expressions.compile(
                        ref, branches.get(b).node().fields(), branches.get(b).columns()));
            }
            values.add(exprs);
        }
        List<String> names = new ArrayList<>(union.getRowType().getFieldNames());
        Set<String> used = new HashSet<>(names);
        List<DataType> fieldTypes = new ArrayList<>();
        for (int f = 0; f < n; f++) {
            fieldTypes.add(commonType(values, f, types.get(f)));
        }
        names.add(StreamProjections.freshName(used));
        fieldTypes.add(DataType.INTEGER);
        List<Field> slots = new ArrayList<>();
        for (Translated branch : branches) {
            for (int k : branch.node().streamKey()) {
                String name = StreamProjections.freshName(used);
                names.add(name);
                slots.add(new Field(name, branch.node().fields().get(k).type()));
                fieldTypes.add(branch.node().fields().get(k).type());
            }
        }
        int[] unionKey = IntStream.range(n, names.size()).toArray();
        Distribution distribution = Distribution.hash(unionKey);
        List<StreamNode> inputs = new ArrayList<>();
        int slot = 0;
        for (int b = 0; b < branches.size(); b++) {
            StreamNode node = branches.get(b).node();
            List<ScalarExpr> exprs = new ArrayList<>(values.get(b));
            exprs.add(new Literal(b, DataType.INTEGER));
            int[] key = node.streamKey();
            for (int s = 0; s < slots.size(); s++) {
                boolean own = s >= slot && s < slot + key.length;
                DataType type = slots.get(s).type();
                exprs.add(own ? new InputRef(key[s - slot], type) : new Literal(null, type));
            }
            slot += key.length;
            inputs.add(exchange(StreamProjections.project(node, exprs, names), distribution));
        }
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            fields.add(new Field(names.get(i), fieldTypes.get(i)));
        }
        return new Translated(
                new UnionNode(List.copyOf(inputs), List.copyOf(fields), unionKey, distribution),
                IntStream.range(0, n).toArray());
    }

    /** The branches' type for union column {@code f} where they agree exactly, else the union's. */
    private static DataType commonType(List<List<ScalarExpr>> branches, int f, RelDataType unionType) {
        DataType first = branches.get(0).get(f).type();
        for (List<ScalarExpr> branch : branches) {
            if (!branch.get(f).type().equals(first)) {
                return TypeMapping.fromRelType(unionType);
            }
        }
        return first;
    }

    /**
     * ORDER BY ... LIMIT becomes a top-N on one actor; an ORDER BY without LIMIT does not change
     * which rows a view holds and is dropped.
     */
    private Translated sort(Sort sort) {
        Translated in = translate(sort.getInput());
        if (sort.fetch == null && sort.offset == null) {
            return in;
        }
        if (sort.fetch == null) {
            throw UnsupportedInViews.error("OFFSET without LIMIT is");
        }
        if (sort.getCollation().getFieldCollations().isEmpty()) {
            // which rows it keeps is left to chance, and would change with every plan
            throw UnsupportedInViews.error("LIMIT without ORDER BY is");
        }
        List<SortKey> order = new ArrayList<>();
        for (RelFieldCollation c : sort.getCollation().getFieldCollations()) {
            RelFieldCollation.NullDirection nulls = c.nullDirection == RelFieldCollation.NullDirection.UNSPECIFIED
                    ? c.direction.defaultNullDirection()
                    : c.nullDirection;
            order.add(new SortKey(
                    in.columns()[c.getFieldIndex()],
                    c.direction.isDescending(),
                    nulls == RelFieldCollation.NullDirection.FIRST));
        }
        long limit = constant(sort.fetch);
        long offset = sort.offset == null ? 0 : constant(sort.offset);
        StreamNode input = exchange(in.node(), Distribution.SINGLE);
        return new Translated(new TopNNode(input, List.copyOf(order), offset, limit), in.columns());
    }

    private static long constant(RexNode node) {
        if (!(node instanceof RexLiteral literal) || literal.isNull()) {
            throw UnsupportedInViews.error("LIMIT and OFFSET other than constants are");
        }
        return literal.getValueAs(BigDecimal.class).longValueExact();
    }

    /** {@code node} distributed as {@code required}: itself when it already is, else behind an exchange. */
    static StreamNode exchange(StreamNode node, Distribution required) {
        return node.distribution().satisfies(required) ? node : new ExchangeNode(node, required);
    }

    private static int[] concat(int[] a, int[] b) {
        int[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static int[] shift(int[] columns, int offset) {
        return Arrays.stream(columns).map(c -> c + offset).toArray();
    }
}

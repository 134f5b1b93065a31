package io.tributary.sql.calcite;

import io.tributary.common.types.InfiniteDateTimes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.DataContexts;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexExecutable;
import org.apache.calcite.rex.RexExecutor;
import org.apache.calcite.rex.RexExecutorImpl;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexVisitorImpl;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.tools.Program;
import org.apache.calcite.util.TimestampString;

/**
 * Folds constant expressions with timestamps in microseconds, as the compiled plan holds them
 * ({@link MillisecondCalls}): each expression is rewritten as it will be compiled, evaluated, and a
 * timestamp result, or each timestamp of an array (or row, map) result, becomes a literal of all six
 * fraction digits (Calcite's own executor reads the count as milliseconds, and a timestamp
 * function's result, or the constant of {@code ts_array @> '{...}'} in a scan's filter, would
 * become a literal thousands of years off). Expressions are handed to {@code delegate} as rewritten (one it leaves unreduced
 * comes back as it was given to this executor); a batch with a cast of a
 * string to timestamptz is left unfolded, for {@link ZonedTimestamps} to read in the session's zone.
 * Called by the planner on the planning thread.
 */
final class MicrosecondFolding implements RexExecutor {
    private final RexExecutor delegate;

    MicrosecondFolding(RexExecutor delegate) {
        this.delegate = delegate;
    }

    /**
     * A planning step that wraps the executor the planner optimizes with (Calcite's, installed
     * after conversion) in one of these; the plan comes back unchanged.
     */
    static Program install() {
        return (planner, rel, traits, materializations, lattices) -> {
            if (!(planner.getExecutor() instanceof MicrosecondFolding) && planner.getExecutor() != null) {
                planner.setExecutor(new MicrosecondFolding(planner.getExecutor()));
            }
            return rel;
        };
    }

    @Override
    public void reduce(RexBuilder rexBuilder, List<RexNode> constExps, List<RexNode> reducedValues) {
        List<RexNode> rewritten = new ArrayList<>(constExps.size());
        for (RexNode e : constExps) {
            rewritten.add(MillisecondCalls.rewrite(rexBuilder, e));
        }
        if (rewritten.stream().anyMatch(MicrosecondFolding::readsTimestamptzText)) {
            reducedValues.addAll(constExps);
            return;
        }
        if (rewritten.stream().noneMatch(e -> holdsTimestamps(e.getType()))) {
            List<RexNode> reduced = reduceDates(rexBuilder, rewritten);
            for (int i = 0; i < reduced.size(); i++) {
                // an expression left unreduced stays as it was: the rewrite is for compiling only
                reducedValues.add(reduced.get(i) == rewritten.get(i) ? constExps.get(i) : reduced.get(i));
            }
            return;
        }
        Object[] values;
        try {
            RexExecutable executable = RexExecutorImpl.getExecutable(
                    rexBuilder, rewritten, rexBuilder.getTypeFactory().builder().build());
            executable.setDataContext(DataContexts.EMPTY);
            values = executable.execute();
        } catch (RuntimeException e) {
            // left for run time, as Calcite's executor leaves an expression it cannot evaluate
            reducedValues.addAll(constExps);
            return;
        }
        for (int i = 0; i < rewritten.size(); i++) {
            RelDataType type = constExps.get(i).getType();
            if (values[i] instanceof Long micros && !InfiniteDateTimes.isFinite(micros)
                    || values[i] instanceof Integer days
                            && isDate(constExps.get(i))
                            && !InfiniteDateTimes.isFiniteDate(days)) {
                // no literal holds an infinity: the expression stays, evaluated at run time
                reducedValues.add(constExps.get(i));
                continue;
            }
            reducedValues.add(rexBuilder.makeLiteral(literalValue(values[i], type), type, true));
        }
    }

    /**
     * {@code rewritten} as Calcite's executor reduces it; when that fails and a date is among them,
     * one at a time, a date that cannot be reduced left as it is: Calcite's date literal cannot hold
     * an infinity ({@code 'infinity'::date}), and a date whose evaluation fails fails again at run
     * time, where its error belongs.
     */
    private List<RexNode> reduceDates(RexBuilder rexBuilder, List<RexNode> rewritten) {
        List<RexNode> reduced = new ArrayList<>(rewritten.size());
        try {
            delegate.reduce(rexBuilder, rewritten, reduced);
            return reduced;
        } catch (RuntimeException e) {
            if (rewritten.stream().noneMatch(MicrosecondFolding::isDate)) {
                throw e;
            }
        }
        reduced.clear();
        for (RexNode e : rewritten) {
            List<RexNode> one = new ArrayList<>(1);
            try {
                delegate.reduce(rexBuilder, List.of(e), one);
                reduced.add(one.get(0));
            } catch (RuntimeException failed) {
                if (!isDate(e)) {
                    throw failed;
                }
                reduced.add(e);
            }
        }
        return reduced;
    }

    private static boolean isDate(RexNode e) {
        return e.getType().getSqlTypeName() == SqlTypeName.DATE;
    }

    /**
     * Whether values of {@code type} hold timestamps: a timestamp, or an array, multiset, map or row
     * with timestamps among its elements or fields (their values are counts of microseconds too,
     * which Calcite's executor would make literals of as milliseconds).
     */
    private static boolean holdsTimestamps(RelDataType type) {
        if (MillisecondCalls.isTimestamp(type)) {
            return true;
        }
        if (type.isStruct()) {
            return type.getFieldList().stream().anyMatch(f -> holdsTimestamps(f.getType()));
        }
        if (type.getSqlTypeName() == SqlTypeName.MAP) {
            return holdsTimestamps(type.getKeyType()) || holdsTimestamps(type.getValueType());
        }
        return type.getComponentType() != null && holdsTimestamps(type.getComponentType());
    }

    /**
     * The value {@code RexBuilder.makeLiteral} takes for an evaluated {@code value} of {@code type}:
     * each timestamp in it (counted in microseconds) as a timestamp of all six fraction digits, the
     * rest as evaluated.
     */
    private static Object literalValue(Object value, RelDataType type) {
        if (value == null || !holdsTimestamps(type)) {
            return value;
        }
        if (MillisecondCalls.isTimestamp(type)) {
            return timestamp((Long) value);
        }
        if (type.getSqlTypeName() == SqlTypeName.MAP) {
            Map<Object, Object> entries = new LinkedHashMap<>();
            ((Map<?, ?>) value)
                    .forEach((k, v) ->
                            entries.put(literalValue(k, type.getKeyType()), literalValue(v, type.getValueType())));
            return entries;
        }
        List<?> elements = value instanceof Object[] array ? Arrays.asList(array) : (List<?>) value;
        List<Object> converted = new ArrayList<>(elements.size());
        for (int i = 0; i < elements.size(); i++) {
            RelDataType elementType =
                    type.isStruct() ? type.getFieldList().get(i).getType() : type.getComponentType();
            converted.add(literalValue(elements.get(i), elementType));
        }
        return converted;
    }

    /** Whether {@code e} casts a string to timestamptz. */
    private static boolean readsTimestamptzText(RexNode e) {
        boolean[] found = {false};
        e.accept(new RexVisitorImpl<Void>(true) {
            @Override
            public Void visitCall(RexCall call) {
                found[0] |= call.getKind() == SqlKind.CAST
                        && call.getType().getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE
                        && SqlTypeUtil.isCharacter(call.getOperands().get(0).getType());
                return super.visitCall(call);
            }
        });
        return found[0];
    }

    private static TimestampString timestamp(long micros) {
        return TimestampString.fromMillisSinceEpoch(Math.floorDiv(micros, 1000L))
                .withNanos((int) Math.floorMod(micros, 1_000_000L) * 1000);
    }
}

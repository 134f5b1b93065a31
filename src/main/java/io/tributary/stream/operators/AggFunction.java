package io.tributary.stream.operators;

import io.tributary.common.codec.ByteWriter;
import io.tributary.common.types.DataType;
import io.tributary.common.types.TypeKind;
import io.tributary.plan.AggCall;
import io.tributary.plan.AggKind;
import java.math.BigDecimal;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * How one aggregate call keeps its per-group state: the state's column types in the group row of
 * the state table, a fresh accumulator for a new group, and one decoded from a stored row.
 * Built once per call by the operator; used on its actor thread only.
 *
 * @param stateTypes the columns an accumulator {@link Accumulator#save saves}
 * @param create an accumulator over no values
 * @param load an accumulator from a stored row and the column its state starts at
 */
record AggFunction(
        List<DataType> stateTypes, Supplier<Accumulator> create, BiFunction<Object[], Integer, Accumulator> load) {

    /**
     * The function computing {@code call} over input values of {@code argType} (ignored for
     * {@code COUNT(*)}).
     *
     * @throws IllegalArgumentException when the call's kind, argument and result types do not fit
     *     together (the planner never produces such a call)
     */
    static AggFunction of(AggCall call, DataType argType) {
        return switch (call.kind()) {
            case COUNT ->
                new AggFunction(
                        List.of(DataType.BIGINT),
                        CountAccumulator::new,
                        (row, at) -> new CountAccumulator((Long) row[at]));
            case SUM, SUM0 -> sum(call, argType);
            case MIN, MAX -> {
                boolean min = call.kind() == AggKind.MIN;
                // one encoding buffer for every group's accumulator: all run on the actor's thread
                ByteWriter scratch = new ByteWriter(16);
                yield new AggFunction(
                        List.of(argType),
                        () -> new ExtremeAccumulator(argType, min, null, scratch),
                        (row, at) -> new ExtremeAccumulator(argType, min, row[at], scratch));
            }
            case BOOL_AND, BOOL_OR -> {
                require(call, argType.kind() == TypeKind.BOOLEAN);
                boolean and = call.kind() == AggKind.BOOL_AND;
                yield new AggFunction(
                        List.of(DataType.BIGINT, DataType.BIGINT),
                        () -> new BoolAccumulator(and, 0, 0),
                        (row, at) -> new BoolAccumulator(and, (Long) row[at], (Long) row[at + 1]));
            }
        };
    }

    private static AggFunction sum(AggCall call, DataType argType) {
        boolean zeroWhenEmpty = call.kind() == AggKind.SUM0;
        DataType type = call.type();
        if (argType.kind() == TypeKind.INTERVAL && type.kind() == TypeKind.INTERVAL && !zeroWhenEmpty) {
            OnceWarning overflow = new OnceWarning(
                    call + " is out of the interval range in some group; it reads NULL there until it fits again");
            return new AggFunction(
                    IntervalSumAccumulator.STATE,
                    () -> new IntervalSumAccumulator(overflow, null, 0),
                    (row, at) -> new IntervalSumAccumulator(overflow, row, at));
        }
        require(call, argType.kind().isNumeric());
        return switch (type.kind()) {
            case SMALLINT, INTEGER, BIGINT -> {
                require(
                        call,
                        argType.kind() == TypeKind.SMALLINT
                                || argType.kind() == TypeKind.INTEGER
                                || argType.kind() == TypeKind.BIGINT);
                OnceWarning overflow = new OnceWarning(call + " does not fit " + type.sqlName()
                        + " in some group; it reads NULL there until it fits again");
                yield new AggFunction(
                        List.of(DataType.NUMERIC, DataType.BIGINT),
                        () -> new IntegralSumAccumulator(type, zeroWhenEmpty, overflow, BigDecimal.ZERO, 0),
                        (row, at) -> new IntegralSumAccumulator(
                                type, zeroWhenEmpty, overflow, (BigDecimal) row[at], (Long) row[at + 1]));
            }
            case NUMERIC ->
                new AggFunction(
                        List.of(DataType.NUMERIC, DataType.BIGINT),
                        () -> new DecimalSumAccumulator(type, zeroWhenEmpty, BigDecimal.ZERO, 0),
                        (row, at) -> new DecimalSumAccumulator(
                                type, zeroWhenEmpty, (BigDecimal) row[at], (Long) row[at + 1]));
            case REAL, DOUBLE ->
                new AggFunction(
                        List.of(DataType.DOUBLE, DataType.BIGINT),
                        () -> new FloatSumAccumulator(type, zeroWhenEmpty, 0, 0),
                        (row, at) ->
                                new FloatSumAccumulator(type, zeroWhenEmpty, (Double) row[at], (Long) row[at + 1]));
            default -> throw new IllegalArgumentException("no streaming " + call + " returning " + type.sqlName());
        };
    }

    private static void require(AggCall call, boolean fits) {
        if (!fits) {
            throw new IllegalArgumentException("no streaming " + call + " over that argument type");
        }
    }
}

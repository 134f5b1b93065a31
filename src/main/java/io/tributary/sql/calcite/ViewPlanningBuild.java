package io.tributary.sql.calcite;

import java.util.List;

/**
 * How one build of the server planned materialized views, in the respects in which builds have
 * differed. A view's state belongs to the operators of the plan it was created with, so a view an
 * earlier build created is planned again as that build planned it ({@link
 * CalciteViewPlanner#planAsEarlierBuild}); a change to how views plan adds one entry to {@link
 * #EARLIER}. Immutable.
 *
 * @param name the builds it stands for, as the documentation names them
 * @param types how it typed: SUM of a bigint numeric ({@link TributaryTypeSystem#INSTANCE}) or
 *     bigint ({@link TributaryTypeSystem#BIGINT_SUMS_AS_BIGINT}); a function's numeric result and a
 *     product of numerics wider than 38 digits unconstrained (only {@link
 *     TributaryTypeSystem#INSTANCE}) or not; a {@code time} without a precision of milliseconds
 *     ({@link TributaryTypeSystem#INSTANCE}) or whole seconds
 * @param pgExtracts whether {@code extract} and {@code date_part} were rewritten as PostgreSQL's
 *     wherever queries rewrite them, or only as builds before session 40 did ({@link ExtractCalls})
 * @param pgFloats whether comparisons of floats and casts of floats to real or numeric were
 *     PostgreSQL's ({@link PgFloatCalls}), or Java's and {@link PgFunctions#pg_numeric(Double)}'s
 * @param pgZeroSums whether a float plus a constant zero added as PostgreSQL does ({@code -0 + 0}
 *     is {@code 0}, {@link FloatZeroSums}), or was simplified to the float, as before session 42
 * @param pgNumericArrays whether {@code =}, {@code <>} and IS [NOT] DISTINCT FROM of numeric arrays
 *     compare elements by value whatever their scales ({@link PgNumericArrayKey}) and an {@code
 *     ARRAY[...]} of numbers of several scales keeps each element's ({@link
 *     CommonTypeResolution#resolveArrayElements}), or arrays compared by {@link java.util.List#equals}
 *     (scales too) and such a constructor gave every element the widest scale, as session 42's build and
 *     all before it did
 * @param pgArrayOperands whether {@code =}, {@code <}, {@code @>}, {@code &&}, IN ... between arrays
 *     of two number types ({@code numeric[] = integer[]}) are refused as PostgreSQL refuses them
 *     ({@link ArrayOperandTypes}, 42883), or compared with Calcite's widened elements, as session
 *     43's build and all before it did
 * @param pgTextEdges whether {@code lpad}/{@code rpad} without a fill, {@code overlay}, {@code
 *     split_part}, constant SIMILAR TO patterns and {@code concat_ws} of booleans were PostgreSQL's
 *     ({@link PgPadFunctions}, {@link PgOverlayFunction}, {@link PgSplitPartFunction}, {@link
 *     SimilarDots}, {@link PgConcatText#wrapConcatWsBooleans}), or Calcite's (XX000 for a negative
 *     pad length or an overlay past the end, field 0 answered, {@code .} any character, {@code
 *     TRUE}/{@code FALSE}), as session 43's build and all before it did
 * @param pgColumnModifiers whether a view's columns have PostgreSQL's type modifiers ({@link
 *     ViewColumnModifiers}: arithmetic's numeric is {@code numeric}, a cast to {@code character(n)}
 *     and a {@code character(n)} column read as it is are {@code character(n)}), or Calcite's types
 *     ({@code n + 1} of a numeric(12,2) numeric(13,2), {@code x::char(3)} text), as session 44's
 *     build and all before it did
 * @param pgTimePrecisions whether a constant cast to {@code time(p)} was rounded to p digits, and
 *     casts to {@code timestamptz(p)}, {@code timestamp(p) with time zone} and a constant's to {@code
 *     interval(p)} or with a field qualifier ({@code '1 year 2 months'::interval year}, {@link
 *     IntervalTypmods}) were read ({@link PgSyntaxText#rewrite(String, io.tributary.common.types.PgTimeZone,
 *     boolean)}), or the time truncated by Calcite's cast, a qualifier after {@code ::interval} read as
 *     an alias and the others refused, as session 44's
 *     build and all before it did
 * @param pgSimilarColumns whether a SIMILAR TO pattern that is no constant ({@code s SIMILAR TO
 *     p}, a column) had its dots literal as a constant's ({@link SimilarDots#literalDots}), or its
 *     {@code .} matched any character, as session 44's build and all before it did
 */
record ViewPlanningBuild(
        String name,
        TributaryTypeSystem types,
        boolean pgExtracts,
        boolean pgFloats,
        boolean pgZeroSums,
        boolean pgNumericArrays,
        boolean pgArrayOperands,
        boolean pgTextEdges,
        boolean pgColumnModifiers,
        boolean pgTimePrecisions,
        boolean pgSimilarColumns) {
    /** This build: how a view created now is planned, as queries are. */
    static final ViewPlanningBuild CURRENT = new ViewPlanningBuild(
            "this build", TributaryTypeSystem.INSTANCE, true, true, true, true, true, true, true, true, true);

    /** The earlier builds whose views may still be stored, newest first. */
    static final List<ViewPlanningBuild> EARLIER = List.of(
            new ViewPlanningBuild(
                    "session 44",
                    TributaryTypeSystem.INSTANCE,
                    true,
                    true,
                    true,
                    true,
                    true,
                    true,
                    false,
                    false,
                    false),
            new ViewPlanningBuild(
                    "session 43",
                    TributaryTypeSystem.TIMES_OF_WHOLE_SECONDS,
                    true,
                    true,
                    true,
                    true,
                    false,
                    false,
                    false,
                    false,
                    false),
            new ViewPlanningBuild(
                    "session 42",
                    TributaryTypeSystem.CALCITE_WIDE_PRODUCTS,
                    true,
                    true,
                    true,
                    false,
                    false,
                    false,
                    false,
                    false,
                    false),
            new ViewPlanningBuild(
                    "session 41",
                    TributaryTypeSystem.NUMERIC_RESULTS_AS_INTEGERS,
                    true,
                    true,
                    false,
                    false,
                    false,
                    false,
                    false,
                    false,
                    false),
            new ViewPlanningBuild(
                    "session 40",
                    TributaryTypeSystem.NUMERIC_RESULTS_AS_INTEGERS,
                    true,
                    false,
                    false,
                    false,
                    false,
                    false,
                    false,
                    false,
                    false),
            new ViewPlanningBuild(
                    "sessions 37 to 39",
                    TributaryTypeSystem.NUMERIC_RESULTS_AS_INTEGERS,
                    false,
                    false,
                    false,
                    false,
                    false,
                    false,
                    false,
                    false,
                    false),
            new ViewPlanningBuild(
                    "before session 37",
                    TributaryTypeSystem.BIGINT_SUMS_AS_BIGINT,
                    false,
                    false,
                    false,
                    false,
                    false,
                    false,
                    false,
                    false,
                    false));
}

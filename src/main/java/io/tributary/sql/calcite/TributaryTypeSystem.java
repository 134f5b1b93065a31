package io.tributary.sql.calcite;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL's typing where it differs from Calcite's defaults: timestamps of six fraction digits, NUMERIC arithmetic at up to 38 digits (larger precision makes every decimal operation pay for it), SUM of
 * INT and SMALLINT is BIGINT so sums do not overflow, SUM of BIGINT is an unconstrained NUMERIC (computed by
 * {@link PgBigintSum} in queries, exactly by the stream planner's NUMERIC sum in views), AVG of integers is NUMERIC, {@code %} of a NUMERIC is NUMERIC.
 * Immutable; thread-safe.
 */
public final class TributaryTypeSystem extends RelDataTypeSystemImpl {
    public static final TributaryTypeSystem INSTANCE = new TributaryTypeSystem(true, true, true, true);

    /**
     * The typing of session 43's build: as {@link #INSTANCE}, but a {@code time} without a
     * precision (a cast {@code ::time}) was Calcite's TIME(0), so a cast of a timestamp to time
     * dropped the fraction. Only for planning a materialized view that build created ({@link
     * CalciteViewPlanner#planAsEarlierBuild}).
     */
    static final TributaryTypeSystem TIMES_OF_WHOLE_SECONDS = new TributaryTypeSystem(true, true, true, false);

    /**
     * The typing of session 42's build: as {@link #INSTANCE}, but a NUMERIC product whose digits do
     * not fit 38 had Calcite's type (two unconstrained numerics' numeric(38,32)). Only for planning a
     * materialized view that build created ({@link CalciteViewPlanner#planAsEarlierBuild}).
     */
    static final TributaryTypeSystem CALCITE_WIDE_PRODUCTS = new TributaryTypeSystem(true, true, false, false);

    /**
     * The typing of builds before session 41's fix of issue 12: a function returning {@code
     * BigDecimal} ({@code pg_numeric}, {@code exp}, {@code extract} ...) was DECIMAL(38,0), so the
     * other side of a comparison with it was cast to an integer. Only for planning a materialized
     * view such a build created, whose state holds that type ({@link
     * CalciteViewPlanner#planAsEarlierBuild}).
     */
    static final TributaryTypeSystem NUMERIC_RESULTS_AS_INTEGERS = new TributaryTypeSystem(true, false, false, false);

    /**
     * The typing of builds before SUM of a BIGINT became NUMERIC: it was BIGINT (and numeric
     * results DECIMAL(38,0), as {@link #NUMERIC_RESULTS_AS_INTEGERS}). Only for planning a
     * materialized view such a build created, whose state holds bigint sums
     * ({@link CalciteViewPlanner#planAsEarlierBuild}).
     */
    static final TributaryTypeSystem BIGINT_SUMS_AS_BIGINT = new TributaryTypeSystem(false, false, false, false);

    static final int MAX_NUMERIC_PRECISION = 38;
    /** PostgreSQL's timestamps hold microseconds: six fraction digits, also when none are declared. */
    private static final int TIMESTAMP_PRECISION = 6;
    /** A time's digits in queries: Calcite's TIME is an int of milliseconds (microseconds are issue 12's open item). */
    private static final int TIME_PRECISION = 3;

    /** Whether SUM of a BIGINT is NUMERIC, as in PostgreSQL; else BIGINT, as earlier builds typed it. */
    private final boolean bigintSumIsNumeric;

    /**
     * Whether a function returning {@code BigDecimal} is an unconstrained NUMERIC, typed as such a
     * column ({@link PgJavaTypeFactory}); else DECIMAL(38,0), as earlier builds typed it.
     */
    private final boolean numericResultsUnconstrained;

    /**
     * Whether a NUMERIC product whose digits do not fit 38 is an unconstrained NUMERIC, as
     * PostgreSQL's exact product is; else Calcite's type, whose scale (the sum of the operands')
     * leaves few integer digits, as earlier builds typed it.
     */
    private final boolean unconstrainedWideProducts;

    /**
     * Whether a {@code time} without a precision keeps the milliseconds Calcite's TIME holds (so
     * {@code ts::time} keeps the fraction, as PostgreSQL's does to the microsecond); else
     * Calcite's TIME(0), as earlier builds typed it.
     */
    private final boolean timesKeepMilliseconds;

    private TributaryTypeSystem(
            boolean bigintSumIsNumeric,
            boolean numericResultsUnconstrained,
            boolean unconstrainedWideProducts,
            boolean timesKeepMilliseconds) {
        this.bigintSumIsNumeric = bigintSumIsNumeric;
        this.timesKeepMilliseconds = timesKeepMilliseconds;
        this.numericResultsUnconstrained = numericResultsUnconstrained;
        this.unconstrainedWideProducts = unconstrainedWideProducts;
    }

    /** Whether a function returning {@code BigDecimal} is an unconstrained NUMERIC (else DECIMAL(38,0)). */
    boolean numericResultsUnconstrained() {
        return numericResultsUnconstrained;
    }

    @Override
    public int getMaxPrecision(SqlTypeName typeName) {
        if (typeName == SqlTypeName.DECIMAL) {
            return MAX_NUMERIC_PRECISION;
        }
        if (isTimestamp(typeName)) {
            return TIMESTAMP_PRECISION;
        }
        return super.getMaxPrecision(typeName);
    }

    @Override
    public int getDefaultPrecision(SqlTypeName typeName) {
        if (typeName == SqlTypeName.TIME && timesKeepMilliseconds) {
            return TIME_PRECISION;
        }
        return isTimestamp(typeName) ? TIMESTAMP_PRECISION : super.getDefaultPrecision(typeName);
    }

    private static boolean isTimestamp(SqlTypeName typeName) {
        return typeName == SqlTypeName.TIMESTAMP || typeName == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
    }

    @Override
    public int getMaxScale(SqlTypeName typeName) {
        if (typeName == SqlTypeName.DECIMAL) {
            return MAX_NUMERIC_PRECISION;
        }
        return super.getMaxScale(typeName);
    }

    @Override
    public RelDataType deriveSumType(RelDataTypeFactory f, RelDataType argumentType) {
        RelDataType t = switch (argumentType.getSqlTypeName()) {
            case TINYINT, SMALLINT, INTEGER -> f.createSqlType(SqlTypeName.BIGINT);
            case BIGINT ->
                bigintSumIsNumeric
                        ? f.createSqlType(
                                SqlTypeName.DECIMAL, MAX_NUMERIC_PRECISION, TypeMapping.UNCONSTRAINED_NUMERIC_SCALE)
                        : f.createSqlType(SqlTypeName.BIGINT);
            case DECIMAL -> f.createSqlType(SqlTypeName.DECIMAL, MAX_NUMERIC_PRECISION, argumentType.getScale());
            default -> argumentType;
        };
        return f.createTypeWithNullability(t, argumentType.isNullable());
    }

    @Override
    public RelDataType deriveAvgAggType(RelDataTypeFactory f, RelDataType argumentType) {
        RelDataType t = switch (argumentType.getSqlTypeName()) {
            case TINYINT, SMALLINT, INTEGER, BIGINT ->
                f.createSqlType(SqlTypeName.DECIMAL, MAX_NUMERIC_PRECISION, TypeMapping.UNCONSTRAINED_NUMERIC_SCALE);
            // Calcite sums in the average's type: the column's precision would overflow on big tables
            case DECIMAL -> f.createSqlType(SqlTypeName.DECIMAL, MAX_NUMERIC_PRECISION, argumentType.getScale());
            default -> argumentType;
        };
        return f.createTypeWithNullability(t, argumentType.isNullable());
    }

    /**
     * {@code %} with a NUMERIC operand is NUMERIC, as in PostgreSQL, with the larger scale of the
     * two. (Calcite types it as the divisor when both scales are 0, which is what a value of a Java
     * function returning {@code BigDecimal}, such as {@code pg_numeric}, looks like, so
     * {@code 7.5::numeric % 2} was an integer.)
     */
    @Override
    public RelDataType deriveDecimalModType(RelDataTypeFactory f, RelDataType type1, RelDataType type2) {
        if (!org.apache.calcite.sql.type.SqlTypeUtil.isExactNumeric(type1)
                || !org.apache.calcite.sql.type.SqlTypeUtil.isExactNumeric(type2)
                || (type1.getSqlTypeName() != SqlTypeName.DECIMAL && type2.getSqlTypeName() != SqlTypeName.DECIMAL)) {
            return null;
        }
        int scale = Math.max(Math.max(type1.getScale(), type2.getScale()), 0);
        return f.createSqlType(SqlTypeName.DECIMAL, MAX_NUMERIC_PRECISION, Math.min(scale, MAX_NUMERIC_PRECISION));
    }

    /**
     * A product of NUMERICs whose precisions add up to more than 38 is an unconstrained NUMERIC
     * (its value keeps the scale of the exact product, as PostgreSQL's). Calcite gives such a
     * product the sum of the scales and caps the precision, so two unconstrained numerics, each
     * (38,16), multiplied to (38,32): six integer digits, and comparing a product above 10^6 with a
     * constant cast one of them to that type (22003). Narrower products keep Calcite's exact type.
     * Earlier builds' views are planned with Calcite's type ({@link #unconstrainedWideProducts}).
     */
    @Override
    public RelDataType deriveDecimalMultiplyType(RelDataTypeFactory f, RelDataType type1, RelDataType type2) {
        RelDataType product = super.deriveDecimalMultiplyType(f, type1, type2);
        if (!unconstrainedWideProducts
                || product == null
                || type1.getPrecision() + type2.getPrecision() <= MAX_NUMERIC_PRECISION) {
            return product;
        }
        return f.createSqlType(SqlTypeName.DECIMAL, MAX_NUMERIC_PRECISION, TypeMapping.UNCONSTRAINED_NUMERIC_SCALE);
    }

    @Override
    public boolean shouldConvertRaggedUnionTypesToVarying() {
        return true;
    }
}

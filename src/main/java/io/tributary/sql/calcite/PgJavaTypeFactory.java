package io.tributary.sql.calcite;

import io.tributary.common.types.PgJson;
import io.tributary.common.types.PgJsonb;
import io.tributary.common.types.TypeKind;
import java.lang.reflect.Type;
import java.util.List;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Calcite's Java type factory with json and jsonb values typed as {@link PgJsonTypes} and uuid values typed as {@link java.util.UUID} in generated code:
 * Calcite 1.42 leaves {@code UUID} as {@code Object} there, so its own uuid functions (casts to
 * and from text) fail to compile against a uuid column. Every Calcite connection and view compiler
 * of a session uses this factory, so plans and compiled expressions agree. Thread-safe as its base.
 */
final class PgJavaTypeFactory extends JavaTypeFactoryImpl {
    PgJavaTypeFactory() {
        this(TributaryTypeSystem.INSTANCE);
    }

    /** A factory typing as {@code types} does; {@link TributaryTypeSystem#INSTANCE} but for views of earlier builds. */
    PgJavaTypeFactory(TributaryTypeSystem types) {
        super(types);
    }

    /** A function returning {@link java.util.UUID} ({@code gen_random_uuid}) returns SQL's uuid. */
    @Override
    public RelDataType createType(Type type) {
        if (type == PgJson.class || type == PgJsonb.class) {
            return PgJsonTypes.type(this, type == PgJson.class ? TypeKind.JSON : TypeKind.JSONB);
        }
        return type == java.util.UUID.class
                ? createTypeWithNullability(createSqlType(SqlTypeName.UUID), true)
                : super.createType(type);
    }

    /**
     * A {@code BigDecimal} (a function's result or parameter) is PostgreSQL's unconstrained numeric,
     * typed as such a column ({@link TypeMapping#UNCONSTRAINED_NUMERIC_SCALE}): Calcite's
     * DECIMAL(38,0) made {@code 2.4::numeric > 2.5} compare with 2.5 cast to an integer. A type
     * system of an earlier build ({@link TributaryTypeSystem#numericResultsUnconstrained}) keeps
     * Calcite's.
     */
    @Override
    public RelDataType createJavaType(Class clazz) {
        if (clazz == java.math.BigDecimal.class
                && getTypeSystem() instanceof TributaryTypeSystem types
                && types.numericResultsUnconstrained()) {
            return createTypeWithNullability(
                    createSqlType(
                            SqlTypeName.DECIMAL,
                            TributaryTypeSystem.MAX_NUMERIC_PRECISION,
                            TypeMapping.UNCONSTRAINED_NUMERIC_SCALE),
                    true);
        }
        if (clazz == PgJson.class || clazz == PgJsonb.class) {
            return PgJsonTypes.type(this, clazz == PgJson.class ? TypeKind.JSON : TypeKind.JSONB);
        }
        return clazz == java.util.UUID.class
                ? createTypeWithNullability(createSqlType(SqlTypeName.UUID), true)
                : super.createJavaType(clazz);
    }

    @Override
    public Type getJavaClass(RelDataType type) {
        if (type instanceof PgJsonTypes json) {
            return json.javaClass();
        }
        return type.getSqlTypeName() == SqlTypeName.UUID ? java.util.UUID.class : super.getJavaClass(type);
    }

    /**
     * {@code real} (nullable if one is) when {@code types} are numbers, one at least a {@code real}
     * and one a NUMERIC, none a double precision: PostgreSQL's common type of a {@code real} and a
     * NUMERIC (in VALUES, UNION, CASE, COALESCE, GREATEST, ARRAY[...]) is {@code real}, as NUMERIC
     * converts to {@code real} implicitly and not back, where Calcite's is double precision
     * ({@code VALUES (0.1::real), (0.2)} printed {@code 0.10000000149011612}); null otherwise.
     */
    private RelDataType realBesideNumeric(List<RelDataType> types) {
        boolean real = false;
        boolean decimal = false;
        boolean nullable = false;
        for (RelDataType type : types) {
            SqlTypeName name = type.getSqlTypeName();
            if (name == SqlTypeName.REAL) {
                real = true;
            } else if (name == SqlTypeName.DECIMAL) {
                decimal = true;
            } else if (name != SqlTypeName.NULL && !SqlTypeName.INT_TYPES.contains(name)) {
                return null;
            }
            nullable |= type.isNullable();
        }
        return real && decimal ? createTypeWithNullability(createSqlType(SqlTypeName.REAL), nullable) : null;
    }

    /**
     * PostgreSQL's interval ({@link PgIntervals}: a column's {@code OTHER}, a function's Java
     * {@code Interval}) beside itself or NULL is that interval, nullable if one is: Calcite has no
     * rule for {@code OTHER} and failed a CASE or COALESCE of an interval column and {@code
     * pg_interval('1 day')}.
     */
    @Override
    public RelDataType leastRestrictive(List<RelDataType> types) {
        RelDataType real = realBesideNumeric(types);
        if (real != null) {
            return real;
        }
        RelDataType interval = null;
        boolean nullable = false;
        for (RelDataType type : types) {
            if (PgIntervals.isInterval(type)) {
                interval = interval == null ? type : interval;
            } else if (type.getSqlTypeName() != SqlTypeName.NULL) {
                return super.leastRestrictive(types);
            }
            nullable |= type.isNullable();
        }
        return interval == null ? super.leastRestrictive(types) : createTypeWithNullability(interval, nullable);
    }

    /** json and jsonb types ({@link PgJsonTypes}) are Calcite's to intern but Tributary's to copy. */
    @Override
    public RelDataType createTypeWithNullability(RelDataType type, boolean nullable) {
        return type instanceof PgJsonTypes
                ? canonize(PgJsonTypes.withNullability(type, nullable))
                : super.createTypeWithNullability(type, nullable);
    }
}

package io.tributary.sql.calcite;

import java.lang.reflect.Type;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Calcite's Java type factory with uuid values typed as {@link java.util.UUID} in generated code:
 * Calcite 1.42 leaves {@code UUID} as {@code Object} there, so its own uuid functions (casts to
 * and from text) fail to compile against a uuid column. Every Calcite connection and view compiler
 * of a session uses this factory, so plans and compiled expressions agree. Thread-safe as its base.
 */
final class PgJavaTypeFactory extends JavaTypeFactoryImpl {
    PgJavaTypeFactory() {
        super(TributaryTypeSystem.INSTANCE);
    }

    /** A function returning {@link java.util.UUID} ({@code gen_random_uuid}) returns SQL's uuid. */
    @Override
    public RelDataType createType(Type type) {
        return type == java.util.UUID.class
                ? createTypeWithNullability(createSqlType(SqlTypeName.UUID), true)
                : super.createType(type);
    }

    @Override
    public RelDataType createJavaType(Class clazz) {
        return clazz == java.util.UUID.class
                ? createTypeWithNullability(createSqlType(SqlTypeName.UUID), true)
                : super.createJavaType(clazz);
    }

    @Override
    public Type getJavaClass(RelDataType type) {
        return type.getSqlTypeName() == SqlTypeName.UUID ? java.util.UUID.class : super.getJavaClass(type);
    }
}

package io.tributary.sql.calcite;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * A parameter of a function Tributary implements itself (not by reflection): never optional, of a
 * nullable {@code type} ({@code ANY} takes any argument as validation typed it). Immutable.
 */
record RequiredParameter(int ordinal, String name, SqlTypeName type) implements FunctionParameter {
    @Override
    public int getOrdinal() {
        return ordinal;
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public RelDataType getType(RelDataTypeFactory typeFactory) {
        return typeFactory.createTypeWithNullability(typeFactory.createSqlType(type), true);
    }

    @Override
    public boolean isOptional() {
        return false;
    }
}

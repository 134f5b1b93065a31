package io.tributary.sql.calcite;

import io.tributary.common.types.PgJson;
import io.tributary.common.types.PgJsonb;
import io.tributary.common.types.TypeKind;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeFamily;
import org.apache.calcite.rel.type.RelDataTypeImpl;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL's json and jsonb in Calcite's type system: a type of its own per kind (SQL type
 * {@code OTHER}, like {@link PgIntervals}' interval, but told apart by its class) whose values are
 * {@link PgJson} and {@link PgJsonb} records in generated code ({@link PgJavaTypeFactory} maps
 * both ways). Not a Java type: Calcite turns a function's Java result type into a plain {@code
 * OTHER}, which would lose the kind. Immutable; instances are interned by the factory.
 */
final class PgJsonTypes extends RelDataTypeImpl {
    private final TypeKind kind;
    private final boolean nullable;

    private PgJsonTypes(TypeKind kind, boolean nullable) {
        this.kind = kind;
        this.nullable = nullable;
        computeDigest();
    }

    /** The Calcite type of json ({@code kind} JSON) or jsonb, nullable, as factory {@code f} interns it. */
    static RelDataType type(RelDataTypeFactory f, TypeKind kind) {
        return f.createTypeWithNullability(new PgJsonTypes(kind, true), true);
    }

    /** {@code type} (one of these) with nullability {@code nullable}. */
    static RelDataType withNullability(RelDataType type, boolean nullable) {
        return new PgJsonTypes(((PgJsonTypes) type).kind, nullable);
    }

    /** JSON or JSONB when {@code t} is one of those types, otherwise null. */
    static TypeKind kind(RelDataType t) {
        return t instanceof PgJsonTypes json ? json.kind : null;
    }

    /** JSON or JSONB when Calcite's JDBC type name {@code name} is one of theirs, otherwise null. */
    static TypeKind kind(String name) {
        if (name.contains(PgJsonb.class.getName())) {
            return TypeKind.JSONB;
        }
        return name.contains(PgJson.class.getName()) ? TypeKind.JSON : null;
    }

    /** The record class of a value of this type in generated code. */
    Class<?> javaClass() {
        return kind == TypeKind.JSON ? PgJson.class : PgJsonb.class;
    }

    @Override
    public boolean isNullable() {
        return nullable;
    }

    @Override
    public SqlTypeName getSqlTypeName() {
        return SqlTypeName.OTHER;
    }

    @Override
    public RelDataTypeFamily getFamily() {
        return this;
    }

    @Override
    protected void generateTypeString(StringBuilder sb, boolean withDetail) {
        sb.append(kind == TypeKind.JSON ? "JSON" : "JSONB");
    }
}

package io.tributary.sql.calcite;

import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL's {@code pg_partition_ancestors(regclass)}: the partitions above a relation, itself
 * first, for a relation that is a partition, and no rows for any other relation. No Tributary
 * relation is a partition, so every call has no rows, as PostgreSQL answers for a plain table (psql's
 * {@code \d} reads it beside {@code UNION ALL VALUES (oid)} for "Referenced by:", and in FROM inside
 * its trigger query). A table function, not a template, so that a call in FROM reading an outer
 * query's column stays a lateral table Calcite decorrelates. Calcite calls {@code eval} by reflection
 * while planning.
 */
public final class PgPartitionAncestors extends AbstractTable implements ScannableTable {
    static final String NAME = "pg_partition_ancestors";

    private static final PgPartitionAncestors NONE = new PgPartitionAncestors();

    private PgPartitionAncestors() {}

    /** @param relation the relation's OID, or null */
    public static ScannableTable eval(Long relation) {
        return NONE;
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
        return typeFactory
                .builder()
                .add(
                        "relid",
                        typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.BIGINT), true))
                .build();
    }

    @Override
    public Enumerable<Object[]> scan(DataContext root) {
        return Linq4j.asEnumerable(List.<Object[]>of());
    }
}

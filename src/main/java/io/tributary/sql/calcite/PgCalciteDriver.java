package io.tributary.sql.calcite;

import org.apache.calcite.jdbc.Driver;

/**
 * The Calcite driver of a session's connection: {@link PgPrepare} prepares its statements and
 * {@link PgConnectionFactory} makes its connections (with uuid values typed in generated code).
 * Not registered with {@code DriverManager}; {@link SessionSchemas} connects through it directly.
 */
final class PgCalciteDriver extends Driver {
    PgCalciteDriver() {
        super(PgPrepare::new);
    }

    @Override
    protected String getFactoryClassName(JdbcVersion jdbcVersion) {
        return PgConnectionFactory.class.getName();
    }
}

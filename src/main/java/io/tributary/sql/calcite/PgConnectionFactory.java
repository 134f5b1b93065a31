package io.tributary.sql.calcite;

import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.Properties;
import java.util.TimeZone;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaFactory;
import org.apache.calcite.avatica.AvaticaPreparedStatement;
import org.apache.calcite.avatica.AvaticaResultSet;
import org.apache.calcite.avatica.AvaticaSpecificDatabaseMetaData;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.QueryState;
import org.apache.calcite.avatica.UnregisteredDriver;
import org.apache.calcite.jdbc.CalciteFactory;
import org.apache.calcite.jdbc.CalciteJdbc41Factory;
import org.apache.calcite.jdbc.CalciteSchema;

/**
 * Calcite's JDBC factory, except that a connection gets a {@link PgJavaTypeFactory} rather than
 * the plain one Calcite makes itself. Calcite instantiates it by class name for {@link
 * PgCalciteDriver} (hence public, with a public constructor); everything else is Calcite's own
 * factory's work.
 */
public final class PgConnectionFactory extends CalciteFactory {
    private final CalciteJdbc41Factory calcite = new CalciteJdbc41Factory();

    public PgConnectionFactory() {
        super(4, 1);
    }

    @Override
    public AvaticaConnection newConnection(
            UnregisteredDriver driver,
            AvaticaFactory factory,
            String url,
            Properties info,
            CalciteSchema rootSchema,
            JavaTypeFactory typeFactory) {
        return calcite.newConnection(
                driver, calcite, url, info, rootSchema, typeFactory == null ? new PgJavaTypeFactory() : typeFactory);
    }

    @Override
    public AvaticaStatement newStatement(
            AvaticaConnection connection, Meta.StatementHandle h, int type, int concurrency, int holdability)
            throws SQLException {
        return calcite.newStatement(connection, h, type, concurrency, holdability);
    }

    @Override
    public AvaticaPreparedStatement newPreparedStatement(
            AvaticaConnection connection,
            Meta.StatementHandle h,
            Meta.Signature signature,
            int type,
            int concurrency,
            int holdability)
            throws SQLException {
        return calcite.newPreparedStatement(connection, h, signature, type, concurrency, holdability);
    }

    @Override
    public AvaticaResultSet newResultSet(
            AvaticaStatement statement, QueryState state, Meta.Signature signature, TimeZone zone, Meta.Frame frame)
            throws SQLException {
        return calcite.newResultSet(statement, state, signature, zone, frame);
    }

    @Override
    public AvaticaSpecificDatabaseMetaData newDatabaseMetaData(AvaticaConnection connection) {
        return calcite.newDatabaseMetaData(connection);
    }

    @Override
    public ResultSetMetaData newResultSetMetaData(AvaticaStatement statement, Meta.Signature signature)
            throws SQLException {
        return calcite.newResultSetMetaData(statement, signature);
    }
}

package io.tributary.sql.calcite;

import io.tributary.catalog.pg.PgSession;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.CallImplementor;
import org.apache.calcite.adapter.enumerable.NullPolicy;
import org.apache.calcite.adapter.enumerable.RexImpTable;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.schema.ImplementableFunction;
import org.apache.calcite.schema.ScalarFunction;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL's {@code pg_cancel_backend(pid)} and {@code pg_terminate_backend(pid)} as functions of
 * a query, evaluated for each row that reaches them, as in the common {@code SELECT
 * pg_terminate_backend(pid) FROM pg_stat_activity WHERE ...}. (The whole statement {@code SELECT
 * pg_cancel_backend(123)} is a utility that also sends PostgreSQL's WARNING for an unknown pid.)
 *
 * <p>The generated code reaches the session through the query's {@link DataContext}: each session
 * registers a {@link SessionHandle} schema in its Calcite root ({@link #register}), and {@link
 * #signal} finds it there, so one compiled plan never holds a session. Runs on the thread that
 * fetches the query's rows (the session's).
 */
public final class BackendSignals implements ScalarFunction, ImplementableFunction {
    /** The root sub-schema holding the session; it has no tables, so no name resolves in it. */
    private static final String SCHEMA = "pg__backend_signals";

    private static final List<FunctionParameter> PARAMETERS =
            List.of(new RequiredParameter(0, "pid", SqlTypeName.INTEGER));

    /** Whether the function ends the session ({@code pg_terminate_backend}) rather than cancelling its statement. */
    private final boolean terminate;

    private BackendSignals(boolean terminate) {
        this.terminate = terminate;
    }

    /** Adds both functions and the schema that hands {@code session} to their code, to a session's root. */
    static void register(SchemaPlus root, PgSession session) {
        root.add(SCHEMA, new SessionHandle(session));
        root.add("pg_cancel_backend", new BackendSignals(false));
        root.add("pg_terminate_backend", new BackendSignals(true));
    }

    @Override
    public List<FunctionParameter> getParameters() {
        return PARAMETERS;
    }

    @Override
    public RelDataType getReturnType(RelDataTypeFactory typeFactory) {
        return typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.BOOLEAN), true);
    }

    @Override
    public CallImplementor getImplementor() {
        // NULL pid: NULL, and no signal (PostgreSQL's functions are strict)
        return RexImpTable.createImplementor(
                (translator, call, operands) -> Expressions.call(
                        BackendSignals.class,
                        "signal",
                        translator.getRoot(),
                        operands.get(0),
                        Expressions.constant(terminate)),
                NullPolicy.STRICT,
                false);
    }

    /**
     * Cancels the statement of session {@code pid} or ends it, from generated code.
     *
     * @return whether such a session exists (PostgreSQL's result: false for a pid that is none)
     */
    public static boolean signal(DataContext root, int pid, boolean terminate) {
        SchemaPlus handle = root.getRootSchema().getSubSchema(SCHEMA);
        return handle.unwrap(SessionHandle.class).session.signalBackend(pid, terminate);
    }

    /** The session whose queries call the functions, kept where their code can find it. */
    private static final class SessionHandle extends AbstractSchema {
        final PgSession session;

        SessionHandle(PgSession session) {
            this.session = session;
        }
    }
}

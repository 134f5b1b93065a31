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
 * PostgreSQL's current-time functions as timestamptz: {@code now()} and {@code
 * transaction_timestamp()} (the transaction's start; {@link PgValueSemantics} makes {@code
 * current_timestamp} a {@code now()} call), {@code statement_timestamp()} (the statement's start)
 * and {@code clock_timestamp()} (the wall clock at each call). Values are instants in microseconds,
 * the form plans hold {@code TIMESTAMP WITH LOCAL TIME ZONE} in ({@link MicrosecondTimestamps}), so
 * they print and convert in the session's TimeZone as every timestamptz does.
 *
 * <p>The generated code reaches the session's clock through the query's {@link DataContext}: each
 * session root holds a {@link Clock} schema ({@link #registerSession}), which {@link RootHandles}
 * finds once per execution. A view's planner registers
 * the functions for their types only ({@link #registerFunctions}): a view reads the current time
 * only through a temporal filter, which replaces the call. Runs on the thread that runs the query.
 */
@MicrosecondTimestamps
public final class CurrentTimes implements ScalarFunction, ImplementableFunction {
    /** The root sub-schema holding the session; it has no tables, so no name resolves in it. */
    private static final String SCHEMA = "pg__current_times";

    /** Finds the session's clock once per execution, not per row. */
    private static final RootHandles<Clock> CLOCKS = new RootHandles<>(SCHEMA, Clock.class);

    /** The static method of this class the generated code calls. */
    private final String method;

    private CurrentTimes(String method) {
        this.method = method;
    }

    /** Adds the four functions to a Calcite root. Called once per root, before planning. */
    static void registerFunctions(SchemaPlus root) {
        root.add("now", new CurrentTimes("transactionStart"));
        root.add("transaction_timestamp", new CurrentTimes("transactionStart"));
        root.add("statement_timestamp", new CurrentTimes("statementStart"));
        root.add("clock_timestamp", new CurrentTimes("clock"));
    }

    /** Adds the schema that hands {@code session}'s clock to the functions' code, to a session's root. */
    static void registerSession(SchemaPlus root, PgSession session) {
        root.add(SCHEMA, new Clock(session));
    }

    /** Whether each call reads the clock anew ({@code clock_timestamp}), not a start time of the statement or transaction. */
    boolean readsClock() {
        return method.equals("clock");
    }

    @Override
    public List<FunctionParameter> getParameters() {
        return List.of();
    }

    @Override
    public RelDataType getReturnType(RelDataTypeFactory typeFactory) {
        return typeFactory.createTypeWithNullability(
                typeFactory.createSqlType(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE), false);
    }

    @Override
    public CallImplementor getImplementor() {
        return RexImpTable.createImplementor(
                (translator, call, operands) -> Expressions.call(CurrentTimes.class, method, translator.getRoot()),
                NullPolicy.NONE,
                false);
    }

    /** {@code now()}: when the session's transaction started. Called by generated code. */
    public static long transactionStart(DataContext root) {
        return session(root).transactionStartMicros();
    }

    /** {@code statement_timestamp()}: when the session's statement started. Called by generated code. */
    public static long statementStart(DataContext root) {
        return session(root).statementStartMicros();
    }

    /** {@code clock_timestamp()}: the wall clock now (the argument keeps the call in its row's code). */
    public static long clock(DataContext root) {
        return java.time.temporal.ChronoUnit.MICROS.between(java.time.Instant.EPOCH, java.time.Instant.now());
    }

    private static PgSession session(DataContext root) {
        return CLOCKS.of(root).session;
    }

    /** The session whose queries call the functions, kept where their code can find it. */
    private static final class Clock extends AbstractSchema {
        final PgSession session;

        Clock(PgSession session) {
            this.session = session;
        }
    }
}

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
 * PostgreSQL's {@code txid_current()}, {@code pg_current_xact_id()} and {@code
 * txid_current_if_assigned()}: the session's transaction id ({@link PgSession#transactionId}), the
 * same for every statement of a transaction block and greater in the next transaction. All three
 * are bigint: Tributary has no xid8, so {@code pg_current_xact_id()} prints as PostgreSQL's does
 * but its column is int8 (PostgreSQL's: xid8, which pgjdbc shows as type OTHER named {@code xid8}).
 * {@code txid_current_if_assigned()} is NULL until one of the others assigned the id.
 *
 * <p>The generated code reaches the session through the query's {@link DataContext}: each session
 * root holds a {@link SessionHandle} schema ({@link #register}). Runs on the thread that runs the
 * query.
 */
public final class TransactionIdFunctions implements ScalarFunction, ImplementableFunction {
    /** The root sub-schema holding the session; it has no tables, so no name resolves in it. */
    private static final String SCHEMA = "pg__transaction_ids";

    /** Whether the call assigns an id when the transaction has none ({@code txid_current_if_assigned} does not). */
    private final boolean assign;

    private TransactionIdFunctions(boolean assign) {
        this.assign = assign;
    }

    /** Adds the three functions and the schema that hands {@code session} to their code, to a session's root. */
    static void register(SchemaPlus root, PgSession session) {
        root.add(SCHEMA, new SessionHandle(session));
        root.add("txid_current", new TransactionIdFunctions(true));
        root.add("pg_current_xact_id", new TransactionIdFunctions(true));
        root.add("txid_current_if_assigned", new TransactionIdFunctions(false));
    }

    @Override
    public List<FunctionParameter> getParameters() {
        return List.of();
    }

    @Override
    public RelDataType getReturnType(RelDataTypeFactory typeFactory) {
        return typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.BIGINT), !assign);
    }

    @Override
    public CallImplementor getImplementor() {
        return RexImpTable.createImplementor(
                (translator, call, operands) -> Expressions.call(
                        TransactionIdFunctions.class, assign ? "current" : "ifAssigned", translator.getRoot()),
                NullPolicy.NONE,
                false);
    }

    /** {@code txid_current()}: the transaction's id, assigned now if it has none. Called by generated code. */
    public static long current(DataContext root) {
        return session(root).transactionId(true);
    }

    /** {@code txid_current_if_assigned()}: the transaction's id, or null before one is assigned. Called by generated code. */
    public static Long ifAssigned(DataContext root) {
        long id = session(root).transactionId(false);
        return id == 0 ? null : id;
    }

    private static PgSession session(DataContext root) {
        return root.getRootSchema().getSubSchema(SCHEMA).unwrap(SessionHandle.class).session;
    }

    /** The session whose queries call the functions, kept where their code can find it. */
    private static final class SessionHandle extends AbstractSchema {
        final PgSession session;

        SessionHandle(PgSession session) {
            this.session = session;
        }
    }
}

package io.tributary.server.session;

import io.tributary.common.types.DataType;
import io.tributary.meta.Database;
import io.tributary.sql.StatementPlan;
import io.tributary.sql.calcite.CalciteFrontend;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns a session's statement text into a {@link PreparedStatement}: looks the plan up in the
 * session's {@link PlanCache} by text or by lifted shape, keys it on the catalog state it was made
 * against, and plans anew when nothing usable is cached. Session thread only.
 */
final class SessionPlans {
    private final Database db;
    private final SessionVariables variables;
    private final CalciteFrontend frontend;
    private final NamedStatements named;
    private final PlanCache planCache = new PlanCache();

    SessionPlans(Database db, SessionVariables variables, CalciteFrontend frontend, NamedStatements named) {
        this.db = db;
        this.variables = variables;
        this.frontend = frontend;
        this.named = named;
    }

    PreparedStatement plan(String text, List<DataType> declared) {
        String sql = boundExecute(text);
        io.tributary.sql.SequenceCallText calls = io.tributary.sql.SequenceCallText.find(sql);
        if (calls != null) {
            return planWithSequenceCalls(sql, declared, calls);
        }
        StatementPlan constants = frontend.planConstantInsert(sql);
        if (constants != null) {
            // made without Calcite's parser or planner, so not worth a place in the plan cache
            return new EnginePreparedStatement(
                    sql, constants, withDeclared(constants, declared), List.of(), null, constants::close, null);
        }
        PreparedStatement keyRange = planKeyRange(sql, declared);
        if (keyRange != null) {
            return keyRange;
        }
        long version = schemaVersion();
        StatementPlan borrowed = planCache.borrow(sql, version);
        if (borrowed == null) {
            PreparedStatement shaped = planShape(sql, version);
            if (shaped != null) {
                return shaped;
            }
        }
        StatementPlan plan = borrowed != null ? borrowed : frontend.plan(sql);
        try {
            return describe(sql, declared, plan, version);
        } catch (RuntimeException e) {
            if (borrowed != null) {
                planCache.giveBack(sql, plan, version, schemaVersion());
            } else {
                plan.close();
            }
            throw e;
        }
    }

    /**
     * A statement whose sequence calls are evaluated ahead of each execution: described (columns,
     * parameters) by its text with a placeholder value for each call, the same types the values
     * will have; {@link EngineSession} plans it with the real values when it runs. Not cached.
     */
    private PreparedStatement planWithSequenceCalls(
            String sql, List<DataType> declared, io.tributary.sql.SequenceCallText calls) {
        StatementPlan shape = frontend.plan(
                calls.withValues(java.util.Collections.nCopies(calls.calls().size(), 1L)));
        List<DataType> types = new ArrayList<>(shape.paramTypes());
        for (int i = 0; i < declared.size() && i < types.size(); i++) {
            if (declared.get(i) != null) {
                types.set(i, declared.get(i));
            }
        }
        return new EnginePreparedStatement(
                sql, shape, List.copyOf(types), List.of(), resultColumns(shape), shape::close, calls);
    }

    /**
     * An UPDATE or DELETE by a range of the key, planned without Calcite; null when the statement
     * is not one, or when the client declared a parameter of another type than the statement
     * gives it (PostgreSQL would then compare or compute in the declared type: the general path
     * does). Cheap to plan, so not cached.
     */
    private PreparedStatement planKeyRange(String sql, List<DataType> declared) {
        StatementPlan plan = frontend.planKeyRangeDml(sql);
        if (plan == null) {
            return null;
        }
        List<DataType> types = new ArrayList<>(plan.paramTypes());
        for (int i = 0; i < declared.size() && i < types.size(); i++) {
            DataType d = declared.get(i);
            if (d != null
                    && d.kind() != types.get(i).kind()
                    && !(d.kind().isString() && types.get(i).kind().isString())) {
                plan.close();
                return null;
            }
        }
        return new EnginePreparedStatement(sql, plan, List.copyOf(types), List.of(), null, plan::close, null);
    }

    /**
     * For {@code EXECUTE name(args)}, the named statement with its arguments bound, which is then
     * planned as if the client had sent it; any other text as it is.
     */
    private String boundExecute(String sql) {
        int start = 0;
        while (start < sql.length() && Character.isWhitespace(sql.charAt(start))) {
            start++;
        }
        if (!sql.regionMatches(true, start, "execute", 0, 7)) {
            return sql;
        }
        return io.tributary.sql.UtilityParser.parse(sql).orElse(null)
                        instanceof io.tributary.sql.UtilityStatement.Execute execute
                ? named.bind(execute)
                : sql;
    }

    /**
     * An UPDATE or DELETE whose constants were lifted into parameters, planned once per shape and
     * run with the constants bound: a literal that changes with every statement, as psql and other
     * simple-query clients send them, no longer means a new Calcite plan each time. Null when the
     * statement has no such shape, or when its shape does not plan; the statement is then planned
     * as written, which gives its own result or error.
     */
    private PreparedStatement planShape(String sql, long version) {
        CalciteFrontend.LiftedStatement lifted;
        try {
            lifted = frontend.lift(sql);
        } catch (RuntimeException e) {
            return null; // planning the text reports what is wrong with it
        }
        if (lifted == null) {
            return null;
        }
        String key = SHAPE_PREFIX + lifted.shape();
        StatementPlan plan = planCache.borrow(key, version);
        if (plan == null) {
            try {
                plan = frontend.planLifted(sql, lifted);
            } catch (RuntimeException e) {
                return null;
            }
        }
        StatementPlan cacheable = plan;
        return new EnginePreparedStatement(
                sql,
                plan,
                List.of(),
                lifted.values(),
                null,
                () -> planCache.giveBack(key, cacheable, version, schemaVersion()),
                null);
    }

    /** Starts the plan cache keys of lifted shapes; no statement text starts with it. */
    private static final String SHAPE_PREFIX = "\0shape:";

    /**
     * What a cached plan was made against, compared for equality only: the three counters only
     * grow, so their sum changes whenever the catalog, the set of system tables or the session's
     * {@code search_path} does. The other databases' numbers (never reused) and catalog versions
     * are mixed in too, since a plan may read their relations: it then changes with their DDL and
     * with a database created or dropped.
     */
    private long schemaVersion() {
        io.tributary.catalog.Catalog own = db.catalog();
        long version = own.version() + db.systemTables().version() + variables.planSettingChanges();
        // mixed in, not added: a sum would fall back to an earlier value when a database is
        // dropped, and an old plan could match again
        for (io.tributary.catalog.DatabaseEntry e : own.databases()) {
            if (!e.name().equals(own.database())) {
                java.util.Optional<io.tributary.catalog.Catalog> peer = own.peer(e.name());
                long peerVersion = peer.isPresent() ? peer.get().version() : -1;
                version = version * 0x9E3779B97F4A7C15L + e.id() * 0xC2B2AE3D27D4EB4FL + peerVersion;
            }
        }
        return version;
    }

    /**
     * The parameter types of {@code plan} as the client binds them: each one the client declared,
     * else the one the plan inferred.
     */
    private static List<DataType> withDeclared(StatementPlan plan, List<DataType> declared) {
        List<DataType> types = new ArrayList<>(plan.paramTypes());
        for (int i = 0; i < declared.size() && i < types.size(); i++) {
            if (declared.get(i) != null) {
                types.set(i, declared.get(i));
            }
        }
        return List.copyOf(types);
    }

    private PreparedStatement describe(String sql, List<DataType> declared, StatementPlan plan, long version) {
        List<DataType> types = withDeclared(plan, declared);
        if (plan instanceof StatementPlan.Utility) {
            return new EnginePreparedStatement(sql, plan, types, List.of(), resultColumns(plan), () -> {}, null);
        }
        StatementPlan cacheable = plan;
        return new EnginePreparedStatement(
                sql,
                plan,
                types,
                List.of(),
                resultColumns(plan),
                () -> planCache.giveBack(sql, cacheable, version, schemaVersion()),
                null);
    }

    static List<ColumnDesc> resultColumns(StatementPlan plan) {
        if (plan instanceof StatementPlan.Query q) {
            return EngineSession.columns(q.query().columns());
        }
        if (plan instanceof StatementPlan.Utility u) {
            if (DatabaseCommands.handles(u.statement())) {
                return DatabaseCommands.resultColumns(u.statement());
            }
            return UtilityResultColumns.of(u.statement());
        }
        StatementPlan.Returning returning = plan instanceof StatementPlan.Insert i
                ? i.returning()
                : plan instanceof StatementPlan.Update u ? u.returning() : ((StatementPlan.Delete) plan).returning();
        return returning == null
                ? null
                : EngineSession.columns(returning.query().columns());
    }

    /** Closes every cached plan not lent out; called when the session ends. */
    void close() {
        planCache.close();
    }
}

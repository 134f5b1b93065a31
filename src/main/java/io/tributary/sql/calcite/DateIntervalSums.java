package io.tributary.sql.calcite;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIntervalLiteral;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.tools.Program;

/**
 * PostgreSQL's {@code date ± interval} is a timestamp; Calcite's is a date (the time of day
 * dropped). {@link IntervalSemantics} fixes a date constant before validation, but only validation
 * knows that a column or expression is a date, so: {@link #rewrite} finds, in a validated query,
 * each {@code +}/{@code -} of a date and one of Calcite's intervals, and writes the query text
 * again with that date cast to a timestamp, to be prepared again (as {@link DateArithmetic} does
 * for refusals, at the call's position). Ad-hoc queries are validated inside Calcite's JDBC layer,
 * so {@link #detect} (a planning step) fails such a plan with {@link Found} and the frontend
 * validates the text once more with {@link #validator} to find the calls; a view's planner has its
 * validator at hand. {@code date ± n * INTERVAL '1' DAY} is left a date: it is how
 * {@link DateArithmetic} spells PostgreSQL's {@code date ± integer}, which is a date. Stateless.
 */
final class DateIntervalSums {
    private DateIntervalSums() {}

    /** Thrown by {@link #detect}'s step: the plan adds an interval to a date. */
    static final class Found extends RuntimeException {
        Found() {
            super("date plus or minus an interval", null, false, false);
        }
    }

    /** Set by {@link #rewriteOrSkip} when it found nothing to rewrite: the next plan on this thread passes. */
    private static final ThreadLocal<Boolean> SKIP = ThreadLocal.withInitial(() -> false);

    /**
     * A planning step that fails with {@link Found} when a plan adds or subtracts an interval to a
     * date, unless {@link #rewriteOrSkip} just let this thread's next plan pass.
     */
    static Program detect() {
        return (planner, rel, traits, materializations, lattices) -> {
            if (SKIP.get()) {
                SKIP.set(false);
                return rel;
            }
            rel.accept(new org.apache.calcite.rel.RelHomogeneousShuttle() {
                @Override
                public RelNode visit(RelNode other) {
                    other.accept(new org.apache.calcite.rex.RexShuttle() {
                        @Override
                        public RexNode visitCall(RexCall call) {
                            if (isDateSum(call)) {
                                throw new Found();
                            }
                            return super.visitCall(call);
                        }
                    });
                    return super.visit(other);
                }
            });
            return rel;
        };
    }

    /** Whether {@code error} or one of its causes is {@link Found}. */
    static boolean found(Throwable error) {
        for (Throwable t = error; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof Found) {
                return true;
            }
        }
        return false;
    }

    private static boolean isDateSum(RexCall call) {
        if ((call.getKind() != SqlKind.PLUS && call.getKind() != SqlKind.MINUS)
                || call.getOperands().size() != 2
                || call.getType().getSqlTypeName() != SqlTypeName.DATE) {
            return false;
        }
        RexNode a = call.getOperands().get(0);
        RexNode b = call.getOperands().get(1);
        RexNode interval = SqlTypeUtil.isInterval(b.getType()) ? b : SqlTypeUtil.isInterval(a.getType()) ? a : null;
        return interval != null && !isDays(interval);
    }

    /** {@code n * INTERVAL '1' DAY}: {@link DateArithmetic}'s {@code date ± integer}. */
    private static boolean isDays(RexNode interval) {
        return interval instanceof RexCall c
                && c.getKind() == SqlKind.TIMES
                && c.getOperands().stream()
                        .anyMatch(o -> o instanceof RexLiteral lit
                                && SqlTypeUtil.isInterval(lit.getType())
                                && lit.getType().getSqlTypeName() == SqlTypeName.INTERVAL_DAY
                                && java.math.BigDecimal.valueOf(86_400_000L)
                                                .compareTo(lit.getValueAs(java.math.BigDecimal.class))
                                        == 0);
    }

    private static boolean isDays(SqlNode interval) {
        return interval instanceof SqlCall c
                && c.getKind() == SqlKind.TIMES
                && c.getOperandList().stream()
                        .anyMatch(o -> o instanceof SqlIntervalLiteral lit
                                && lit.toString().replace(" ", "").equalsIgnoreCase("INTERVAL'1'DAY"));
    }

    /**
     * A validator over a session's schemas, as its JDBC connection validates, for {@link #rewrite}.
     */
    static SqlValidator validator(CalciteConnection connection) throws java.sql.SQLException {
        return validator(connection, SqlOperatorTables.of());
    }

    /** The same with {@code more} operators than the connection's ({@link AtTimeZoneCalls}). */
    static SqlValidator validator(CalciteConnection connection, SqlOperatorTable more) throws java.sql.SQLException {
        CalciteConnectionConfig config = connection.config();
        JavaTypeFactoryImpl types = new PgJavaTypeFactory();
        // a snapshot, as the connection's own preparation takes: the root's cached table names
        // would miss a table created after this session's first validation here
        CalciteCatalogReader reader = new CalciteCatalogReader(
                CalciteSchema.from(connection.getRootSchema())
                        .createSnapshot(new org.apache.calcite.schema.impl.LongSchemaVersion(System.nanoTime())),
                connection.getSchema() == null ? List.of() : List.of(connection.getSchema()),
                types,
                config);
        SqlOperatorTable operators = SqlOperatorTables.chain(
                config.fun(SqlOperatorTable.class, SqlStdOperatorTable.instance()), more, reader);
        return new PgValidator(
                operators,
                reader,
                types,
                PgTypeCoercion.narrowed(SqlValidator.Config.DEFAULT
                        .withLenientOperatorLookup(config.lenientOperatorLookup())
                        .withConformance(config.conformance())
                        .withDefaultNullCollation(config.defaultNullCollation())
                        .withIdentifierExpansion(true)));
    }

    /**
     * For the frontend, after {@link #detect} failed a plan with {@link Found}: the query text with
     * its dates cast, or, when validating it here finds none (this validator differs from the
     * connection's), the same text, which this thread then plans without the check.
     */
    static String rewriteOrSkip(String text, CalciteConnection connection) {
        String rewritten;
        try {
            rewritten = rewrite(text, validator(connection));
        } catch (java.sql.SQLException e) {
            rewritten = null;
        }
        if (rewritten == null) {
            SKIP.set(true);
            return text;
        }
        return rewritten;
    }

    /**
     * {@code text} validated by {@code validator} and written again with each date that an
     * interval is added to or subtracted from cast to a timestamp, or null when there is none (or
     * the text does not validate here).
     */
    static String rewrite(String text, SqlValidator validator) {
        SqlNode validated;
        try {
            validated = validator.validate(
                    SqlParser.create(text, CalciteSettings.PARSER).parseStmt());
        } catch (SqlParseException | RuntimeException e) {
            return null;
        }
        return rewrite(text, validated, validator);
    }

    /** The same for a query already validated by {@code validator}. */
    static String rewrite(String text, SqlNode validated, SqlValidator validator) {
        Set<SqlParserPos> dates = new HashSet<>();
        validated.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if ((call.getKind() == SqlKind.PLUS || call.getKind() == SqlKind.MINUS) && call.operandCount() == 2) {
                    for (int i = 0; i < 2; i++) {
                        SqlNode date = call.operand(i);
                        SqlNode other = call.operand(1 - i);
                        if (is(validator, date, SqlTypeName.DATE)
                                && interval(validator, other)
                                && !isDays(other)
                                && (i == 0 || call.getKind() == SqlKind.PLUS)) {
                            dates.add(date.getParserPosition());
                        }
                    }
                }
                return super.visit(call);
            }
        });
        if (dates.isEmpty()) {
            return null;
        }
        SqlNode parsed;
        try {
            parsed = SqlParser.create(text, CalciteSettings.PARSER).parseStmt();
        } catch (SqlParseException e) {
            return null;
        }
        boolean[] done = {false};
        SqlNode rewritten = parsed.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                SqlNode visited = super.visit(call);
                if (!(visited instanceof SqlCall c)
                        || (c.getKind() != SqlKind.PLUS && c.getKind() != SqlKind.MINUS)
                        || c.operandCount() != 2) {
                    return visited;
                }
                for (int i = 0; i < 2; i++) {
                    if (dates.contains(c.operand(i).getParserPosition())) {
                        c.setOperand(i, timestamp(c.operand(i)));
                        done[0] = true;
                    }
                }
                return c;
            }
        });
        return done[0] ? CalciteFrontend.unparse(rewritten) : null;
    }

    private static boolean is(SqlValidator validator, SqlNode node, SqlTypeName name) {
        RelDataType type = validator.getValidatedNodeTypeIfKnown(node);
        return type != null && type.getSqlTypeName() == name;
    }

    private static boolean interval(SqlValidator validator, SqlNode node) {
        RelDataType type = validator.getValidatedNodeTypeIfKnown(node);
        return type != null && SqlTypeUtil.isInterval(type);
    }

    private static SqlNode timestamp(SqlNode date) {
        SqlParserPos pos = date.getParserPosition();
        return SqlStdOperatorTable.CAST.createCall(
                pos, date, new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.TIMESTAMP, 3, pos), pos));
    }
}

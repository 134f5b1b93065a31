package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.List;
import java.util.Random;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.CallImplementor;
import org.apache.calcite.adapter.enumerable.EnumUtils;
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
 * PostgreSQL's {@code random()} and {@code setseed(seed)} over one generator per session, as each
 * PostgreSQL backend has its own: {@code random()} is a double precision in [0, 1), from a
 * generator seeded unpredictably when the session starts; {@code setseed(s)} (s in [-1, 1], else
 * 22023 with PostgreSQL's message) reseeds it, so the session's following {@code random()} values
 * are the same every time after the same seed. The numbers are not PostgreSQL's (its generator is
 * another). {@code setseed} returns PostgreSQL's {@code void} as the empty text it prints; NULL for
 * a NULL seed, which it ignores (strict, as in PostgreSQL).
 *
 * <p>Both are volatile ({@link VolatileFunction}): never folded into a constant of a cached plan,
 * refused in views. The generated code reaches the session's generator through the query's {@link
 * DataContext}: each session root holds a {@link Generator} schema ({@link #registerSession}), so a
 * compiled plan holds no generator; {@link RootHandles} finds it once per execution. Runs on the thread that runs the query.
 */
public final class SessionRandom implements ScalarFunction, ImplementableFunction {
    /** The root sub-schema holding the session's generator; it has no tables, so no name resolves in it. */
    private static final String SCHEMA = "pg__session_random";

    /** Finds the session's generator once per execution, not per row. */
    private static final RootHandles<Generator> GENERATORS = new RootHandles<>(SCHEMA, Generator.class);

    private static final List<FunctionParameter> SEED = List.of(new RequiredParameter(0, "seed", SqlTypeName.DOUBLE));

    /** Whether this is {@code setseed}, not {@code random}. */
    private final boolean seeds;

    /** Numbers the generated call sites of {@code random()}, so that no two are equal expressions. */
    private final java.util.concurrent.atomic.AtomicInteger callSites = new java.util.concurrent.atomic.AtomicInteger();

    private SessionRandom(boolean seeds) {
        this.seeds = seeds;
    }

    /** Adds {@code random} and {@code setseed} to a Calcite root. Called once per root, before planning. */
    static void registerFunctions(SchemaPlus root) {
        root.add("random", new SessionRandom(false));
        root.add("setseed", new SessionRandom(true));
    }

    /** Adds the schema that holds a new session's generator, unpredictably seeded, to its root. */
    static void registerSession(SchemaPlus root) {
        root.add(SCHEMA, new Generator());
    }

    @Override
    public List<FunctionParameter> getParameters() {
        return seeds ? SEED : List.of();
    }

    @Override
    public RelDataType getReturnType(RelDataTypeFactory typeFactory) {
        return seeds
                ? typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.VARCHAR), true)
                : typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.DOUBLE), false);
    }

    @Override
    public CallImplementor getImplementor() {
        if (!seeds) {
            return RexImpTable.createImplementor(
                    // a distinct constant per call site: the code generator shares equal expressions,
                    // which made random() = random() true
                    (translator, call, operands) -> Expressions.call(
                            SessionRandom.class,
                            "random",
                            translator.getRoot(),
                            Expressions.constant(callSites.incrementAndGet())),
                    NullPolicy.NONE,
                    false);
        }
        return RexImpTable.createImplementor(
                (translator, call, operands) -> Expressions.call(
                        SessionRandom.class,
                        "setseed",
                        translator.getRoot(),
                        Expressions.call(EnumUtils.convert(operands.get(0), BigDecimal.class), "doubleValue")),
                NullPolicy.STRICT,
                false);
    }

    /**
     * {@code random()}: the session generator's next value in [0, 1). Called by generated code;
     * {@code site} only tells call sites apart.
     */
    public static double random(DataContext root, int site) {
        return generator(root).random.nextDouble();
    }

    /**
     * {@code setseed(seed)}: reseeds the session's generator. Called by generated code.
     *
     * @return PostgreSQL's void, which prints as empty text
     * @throws TributaryException 22023 for a seed outside [-1, 1] (NaN too)
     */
    public static String setseed(DataContext root, double seed) {
        if (!(seed >= -1 && seed <= 1)) {
            throw new TributaryException(
                    SqlState.INVALID_PARAMETER_VALUE,
                    "setseed parameter " + shortest(seed) + " is out of allowed range [-1,1]");
        }
        // PostgreSQL's own scaling: seeds closer than 2^-31 are the same seed there too (Random keeps
        // only 48 bits of its seed, so the double's bits, whose low ones are zero for 0.25 and -0.75, would not do)
        generator(root).random.setSeed((long) (seed * Integer.MAX_VALUE));
        return "";
    }

    /** {@code seed} as C's {@code %g} prints it in PostgreSQL's message: six significant digits. */
    private static String shortest(double seed) {
        if (Double.isNaN(seed) || Double.isInfinite(seed)) {
            return Double.isNaN(seed) ? "nan" : seed > 0 ? "inf" : "-inf";
        }
        BigDecimal six = new BigDecimal(seed).round(new MathContext(6)).stripTrailingZeros();
        return Math.abs(seed) < 1e6 ? six.toPlainString() : six.toString().toLowerCase(java.util.Locale.ROOT);
    }

    private static Generator generator(DataContext root) {
        return GENERATORS.of(root);
    }

    /** The session's generator, kept where the functions' code can find it. */
    private static final class Generator extends AbstractSchema {
        final Random random = new Random();
    }
}

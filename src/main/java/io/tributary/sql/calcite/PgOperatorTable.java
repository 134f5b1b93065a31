package io.tributary.sql.calcite;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.validate.SqlNameMatcher;

/**
 * Calcite's operator table without the library functions whose PostgreSQL namesake means something
 * else: Calcite's {@code sha256} and {@code sha512} return hex text where PostgreSQL's return bytea
 * ({@link PgByteaFunctions}), its {@code sha1} has no PostgreSQL counterpart (42883), and its
 * {@code random} cannot be seeded ({@link SessionRandom} can). With them hidden, the schema
 * functions of those names resolve, in queries and views alike. It adds the
 * variadic json build functions ({@link JsonBuildFunction}) and the json aggregates ({@link
 * JsonAggregates}), which no schema function can express, the array functions typed by their
 * arguments ({@link ArrayFunctions}) and {@link PgArrayAgg}; {@code lead} and {@code lag} resolve to
 * {@link PgLeadLag}, typed as PostgreSQL types them, and {@code now()} and its kin to a
 * {@link VolatileFunction}. Made by
 * {@link PgValidator} for each validation; stateless beyond the table it wraps.
 */
final class PgOperatorTable implements SqlOperatorTable {
    private static final Set<String> HIDDEN = Set.of("SHA1", "SHA256", "SHA512", "RANDOM");

    private final SqlOperatorTable calcites;

    private PgOperatorTable(SqlOperatorTable calcites) {
        this.calcites = calcites;
    }

    /** {@code calcites} without the hidden functions (itself when already wrapped). */
    static SqlOperatorTable of(SqlOperatorTable calcites) {
        return calcites instanceof PgOperatorTable ? calcites : new PgOperatorTable(calcites);
    }

    @Override
    public void lookupOperatorOverloads(
            SqlIdentifier opName,
            SqlFunctionCategory category,
            SqlSyntax syntax,
            List<SqlOperator> operatorList,
            SqlNameMatcher nameMatcher) {
        int before = operatorList.size();
        calcites.lookupOperatorOverloads(opName, category, syntax, operatorList, nameMatcher);
        List<SqlOperator> found = operatorList.subList(before, operatorList.size());
        found.removeIf(PgOperatorTable::hidden);
        found.replaceAll(PgOperatorTable::postgres);
        if (opName.isSimple() && syntax == SqlSyntax.FUNCTION) {
            SqlOperator build = JsonBuildFunction.named(opName.getSimple());
            SqlOperator aggregate = JsonAggregates.named(opName.getSimple());
            SqlOperator array = opName.getSimple().equalsIgnoreCase(PgArrayAgg.NAME)
                    ? PgArrayAgg.OPERATOR
                    : ArrayFunctions.named(opName.getSimple());
            if (build != null || aggregate != null || array != null) {
                operatorList.add(build != null ? build : aggregate != null ? aggregate : array);
            }
        }
    }

    /**
     * PostgreSQL's typing of {@code lead} and {@code lag} ({@link PgLeadLag}) in place of Calcite's;
     * functions whose value belongs to each execution as {@link VolatileFunction}s.
     */
    private static SqlOperator postgres(SqlOperator operator) {
        if (operator.getClass() == org.apache.calcite.sql.fun.SqlLeadLagAggFunction.class) {
            return operator.getKind() == org.apache.calcite.sql.SqlKind.LEAD ? PgLeadLag.LEAD : PgLeadLag.LAG;
        }
        return VolatileFunction.of(operator);
    }

    @Override
    public List<SqlOperator> getOperatorList() {
        List<SqlOperator> operators = new ArrayList<>(JsonBuildFunction.all());
        operators.addAll(JsonAggregates.all());
        operators.addAll(ArrayFunctions.all());
        operators.add(PgArrayAgg.OPERATOR);
        calcites.getOperatorList().stream()
                .filter(o -> !hidden(o))
                .map(PgOperatorTable::postgres)
                .forEach(operators::add);
        return operators;
    }

    private static boolean hidden(SqlOperator operator) {
        return operator.getSyntax() == SqlSyntax.FUNCTION
                && HIDDEN.contains(operator.getName().toUpperCase(Locale.ROOT))
                && !(operator instanceof org.apache.calcite.sql.validate.SqlUserDefinedFunction);
    }
}

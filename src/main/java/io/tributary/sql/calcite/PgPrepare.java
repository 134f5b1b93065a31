package io.tributary.sql.calcite;

import java.lang.reflect.Type;
import java.util.function.UnaryOperator;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.interpreter.BindableConvention;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.prepare.CalcitePrepareImpl;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.sql.validate.SqlValidator;

/**
 * Calcite's preparation of a JDBC statement with two changes: its validator coerces types as
 * PostgreSQL does ({@link PgTypeCoercion}, {@link PgValidator}), and constants are folded with
 * PostgreSQL's semantics while the statement is converted ({@link PgConstantFolding}). Calcite's connection offers no setting for the
 * validator's coercion, so {@link SessionSchemas} opens its connection with a driver whose
 * statements this prepares. A new instance per prepared statement, as Calcite makes them.
 */
final class PgPrepare extends CalcitePrepareImpl {
    /** The same preparing statement as Calcite's, but for the validator it makes. */
    @Override
    protected CalcitePreparingStmt getPreparingStmt(
            CalcitePrepare.Context context,
            Type elementType,
            CalciteCatalogReader catalogReader,
            RelOptPlanner planner) {
        JavaTypeFactory typeFactory = context.getTypeFactory();
        // Conversion folds constants with the planner's executor; optimization installs Calcite's
        // own afterwards, but by then PgArithmetic has rewritten every expression.
        planner.setExecutor(new PgConstantFolding());
        EnumerableRel.Prefer prefer =
                elementType == Object[].class ? EnumerableRel.Prefer.ARRAY : EnumerableRel.Prefer.CUSTOM;
        return new CalcitePreparingStmt(
                this,
                context,
                catalogReader,
                typeFactory,
                context.getRootSchema(),
                prefer,
                createCluster(planner, new RexBuilder(typeFactory)),
                enableBindable ? BindableConvention.INSTANCE : EnumerableConvention.INSTANCE,
                createConvertletTable()) {
            @Override
            protected SqlValidator createSqlValidator(
                    CatalogReader reader, UnaryOperator<SqlValidator.Config> configTransform) {
                SqlValidator calcites = super.createSqlValidator(
                        reader, config -> PgTypeCoercion.narrowed(configTransform.apply(config)));
                return new PgValidator(
                        calcites.getOperatorTable(),
                        (CalciteCatalogReader) reader,
                        (JavaTypeFactory) calcites.getTypeFactory(),
                        calcites.config());
            }
        };
    }
}

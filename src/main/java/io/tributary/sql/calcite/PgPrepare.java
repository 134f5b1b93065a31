package io.tributary.sql.calcite;

import io.tributary.common.types.PgJson;
import io.tributary.common.types.PgJsonb;
import io.tributary.common.types.TypeKind;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.interpreter.BindableConvention;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.prepare.CalcitePrepareImpl;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql2rel.SqlRexConvertletTable;

/**
 * Calcite's preparation of a JDBC statement with two changes: its validator coerces types as
 * PostgreSQL does ({@link PgTypeCoercion}, {@link PgValidator}), and constants are folded with
 * PostgreSQL's semantics while the statement is converted ({@link PgConstantFolding}). Calcite's connection offers no setting for the
 * validator's coercion, so {@link SessionSchemas} opens its connection with a driver whose
 * statements this prepares. A new instance per prepared statement, as Calcite makes them.
 */
final class PgPrepare extends CalcitePrepareImpl {
    /**
     * The validators made for the statement this prepares (Calcite makes more than the one that
     * validates it); the one that validated it knows its columns' own names.
     */
    private final List<PgValidator> validators = new ArrayList<>();

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
                PgValidator validator = new PgValidator(
                        calcites.getOperatorTable(),
                        (CalciteCatalogReader) reader,
                        (JavaTypeFactory) calcites.getTypeFactory(),
                        calcites.config());
                validators.add(validator);
                return validator;
            }
        };
    }

    /** Calcite's conversion, but a float plus a constant zero adds as PostgreSQL does ({@link FloatZeroSums}). */
    @Override
    protected SqlRexConvertletTable createConvertletTable() {
        return FloatZeroSums.INSTANCE;
    }

    /**
     * Calcite's signature, with json and jsonb result columns named by their record class in the
     * JDBC metadata: Calcite names every {@code OTHER} column alike, and {@link
     * CalcitePreparedQuery} must tell them from intervals ({@link PgJsonTypes#kind(String)}); and
     * each column labelled with PostgreSQL's name ({@link PgValidator#ownColumnNames}: a {@code *}
     * over a join keeps each column's own name, which Calcite numbers apart).
     */
    @Override
    public <T> CalciteSignature<T> prepareSql(Context context, Query<T> query, Type elementType, long maxRowCount) {
        CalciteSignature<T> signature = super.prepareSql(context, query, elementType, maxRowCount);
        if (signature.rowType == null || !signature.rowType.isStruct()) {
            return signature;
        }
        List<RelDataTypeField> fields = signature.rowType.getFieldList();
        List<String> own = ownColumnNames(signature.columns.size());
        for (int i = 0; i < fields.size() && i < signature.columns.size(); i++) {
            TypeKind kind = PgJsonTypes.kind(fields.get(i).getType());
            String label = own == null ? signature.columns.get(i).label : own.get(i);
            if (kind != null || !label.equals(signature.columns.get(i).label)) {
                ColumnMetaData c = signature.columns.get(i);
                ColumnMetaData.AvaticaType type = kind == null
                        ? c.type
                        : ColumnMetaData.scalar(
                                java.sql.Types.OTHER,
                                kind == TypeKind.JSON ? PgJson.class.getName() : PgJsonb.class.getName(),
                                ColumnMetaData.Rep.OBJECT);
                signature.columns.set(
                        i,
                        new ColumnMetaData(
                                c.ordinal,
                                c.autoIncrement,
                                c.caseSensitive,
                                c.searchable,
                                c.currency,
                                c.nullable,
                                c.signed,
                                c.displaySize,
                                label,
                                c.columnName,
                                c.schemaName,
                                c.precision,
                                c.scale,
                                c.tableName,
                                c.catalogName,
                                type,
                                c.readOnly,
                                c.writable,
                                c.definitelyWritable,
                                c.columnClassName));
            }
        }
        return signature;
    }

    /** The own names of the prepared statement's {@code width} columns, null if no validator knows them. */
    private List<String> ownColumnNames(int width) {
        for (PgValidator validator : validators) {
            List<String> own = validator.ownColumnNames();
            if (own != null && own.size() == width) {
                return own;
            }
        }
        return null;
    }
}

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
        List<PassedColumns.Passed> passed = passedColumns(signature.columns.size());
        PassedColumns.offer(passed);
        for (int i = 0; i < fields.size() && i < signature.columns.size(); i++) {
            TypeKind kind = PgJsonTypes.kind(fields.get(i).getType());
            String label = own == null ? signature.columns.get(i).label : own.get(i);
            List<String> origin = originThrough(passed, signature.columns.get(i), i);
            if (kind != null || !label.equals(signature.columns.get(i).label) || origin != null) {
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
                                origin == null ? c.columnName : originPart(origin, 0),
                                origin == null ? c.schemaName : originPart(origin, 2),
                                c.precision,
                                c.scale,
                                origin == null ? c.tableName : originPart(origin, 1),
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

    /**
     * The sources through derived tables of the prepared statement's {@code width} columns ({@link
     * PassedColumns}), null if no validator knows them.
     */
    private List<PassedColumns.Passed> passedColumns(int width) {
        for (PgValidator validator : validators) {
            List<PassedColumns.Passed> passed = validator.passedColumns();
            if (passed != null && passed.size() == width) {
                return passed;
            }
        }
        return null;
    }

    /**
     * The relation column that column {@code i} reads through derived tables, written as Calcite
     * writes an origin, where Calcite's own origin names none; null otherwise.
     */
    private static List<String> originThrough(List<PassedColumns.Passed> passed, ColumnMetaData c, int i) {
        if (passed == null || passed.get(i) == null || c.tableName != null && !c.tableName.isEmpty()) {
            return null;
        }
        return passed.get(i).origin();
    }

    /** Calcite's part of an origin: the column ({@code fromEnd} 0), its relation (1), the schema (2). */
    private static String originPart(List<String> origin, int fromEnd) {
        return fromEnd >= origin.size() ? null : origin.get(origin.size() - 1 - fromEnd);
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

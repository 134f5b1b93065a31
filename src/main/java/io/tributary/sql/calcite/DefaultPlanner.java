package io.tributary.sql.calcite;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.TableDef;
import io.tributary.common.TributaryException;
import io.tributary.plan.Field;
import io.tributary.plan.ScalarExpr;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexVisitorImpl;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;

/**
 * Plans a column's DEFAULT expression for ON DELETE SET DEFAULT as {@code SELECT (default) FROM t}
 * over a catalog holding only the table, with the SELECT path's rewrites, and compiles the one
 * projected expression with the views' {@link ExpressionCompiler}, so a cascade evaluates it without
 * Calcite. Called by {@link CalciteViewPlanner#planDefault}; stateless.
 */
final class DefaultPlanner {
    private DefaultPlanner() {}

    /**
     * @throws TributaryException 0A000 for a default calling a volatile or time-dependent function
     *     (a sequence's {@code nextval} among them), which a cascade would have to call per row
     */
    static ScalarExpr plan(TableDef table, int column) {
        ColumnDef def = table.columns().get(column);
        String local = table.localName();
        Catalog alone = new Catalog();
        alone.put(new TableDef(table.id(), local, table.columns(), table.primaryKey(), table.definition()));
        String query = "SELECT (" + def.defaultExpr() + ") FROM \"" + local.replace("\"", "\"\"") + "\"";
        SqlNode node;
        try {
            node = SqlParser.create(PgSyntaxText.rewrite(query), CalciteSettings.PARSER)
                    .parseQuery();
        } catch (SqlParseException e) {
            throw SqlErrors.translate(e, query);
        }
        node = node.accept(new PgOperatorPrecedence(query));
        node = StatementRewrite.applyAll(node, DatabaseQualifiedNames.forView(alone))
                .statement();
        ViewQueryConverter converter = new ViewQueryConverter(alone);
        RelNode rel;
        try {
            rel = converter.convert(converter.validate(node)).project();
        } catch (TributaryException e) {
            throw e;
        } catch (RuntimeException e) {
            throw SqlErrors.translate(e, query);
        }
        if (!(rel instanceof Project project) || !(project.getInput() instanceof TableScan scan)) {
            throw refused(def, "a form of DEFAULT expression that needs the query planner");
        }
        RexNode rex = project.getProjects().get(0);
        rex.accept(new RexVisitorImpl<Void>(true) {
            @Override
            public Void visitCall(RexCall call) {
                if (!call.getOperator().isDeterministic()
                        || call.getOperator().isDynamicFunction()
                        || call.getOperator().getName().equalsIgnoreCase("nextval")) {
                    throw refused(def, call.getOperator().getName().toLowerCase(Locale.ROOT));
                }
                return super.visitCall(call);
            }
        });
        int[] columns = scan.getRowType().getFieldNames().stream()
                .mapToInt(table::columnIndex)
                .toArray();
        List<Field> fields =
                table.columns().stream().map(c -> new Field(c.name(), c.type())).toList();
        return new ExpressionCompiler(converter.cluster().getRexBuilder()).compile(rex, fields, columns);
    }

    private static TributaryException refused(ColumnDef column, String what) {
        return TributaryException.notSupported("SET DEFAULT of column \"" + column.name() + "\", whose DEFAULT calls "
                + what + " (a volatile or time-dependent function)");
    }
}

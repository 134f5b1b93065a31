package io.tributary.sql.calcite;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.TableDef;
import io.tributary.common.TributaryException;
import io.tributary.plan.Field;
import io.tributary.plan.ScalarExpr;
import java.util.List;
import java.util.function.Function;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;

/**
 * Plans one expression over a table's row (a CHECK condition, a column's DEFAULT) as {@code SELECT
 * (expression) FROM t} over a catalog holding only the table, with the SELECT path's rewrites and
 * validation, so it accepts the functions queries do. The caller inspects the parse between {@link
 * #parse} and {@link #plan}, and the planned expression before {@link Planned#compile} compiles it
 * with the views' {@link ExpressionCompiler} for evaluation per row without Calcite. Used by {@link
 * CheckPlanner} and {@link DefaultPlanner}; one instance per expression, on the planning thread.
 */
final class RowExpressionPlanner {
    private final TableDef table;
    private final Catalog alone;
    private final String query;
    /** The text parsed: {@link #query} with the text rewrites, then those of {@link #plan}'s refusals. */
    private String text;

    RowExpressionPlanner(TableDef table, String expression) {
        this.table = table;
        String local = table.localName();
        this.alone = new Catalog();
        alone.put(new TableDef(table.id(), local, table.columns(), table.primaryKey(), table.definition()));
        this.query = "SELECT (" + expression + ") FROM \"" + local.replace("\"", "\"\"") + "\"";
    }

    /**
     * @return the query parsed, with PostgreSQL's operator precedence
     * @throws TributaryException a syntax error, as the SELECT path reports it
     */
    SqlNode parse() {
        text = PgSyntaxText.rewrite(query);
        return parse(text);
    }

    private SqlNode parse(String sql) {
        SqlNode node;
        try {
            node = SqlParser.create(sql, CalciteSettings.PARSER).parseQuery();
        } catch (SqlParseException e) {
            throw SqlErrors.translate(e, query);
        }
        return node.accept(new PgOperatorPrecedence(sql));
    }

    /**
     * Rewrites, validates and converts what {@link #parse} returned. Operators Calcite refuses that
     * have PostgreSQL's meaning (date and interval arithmetic and comparisons) are rewritten and the
     * text planned again, as views are ({@link CalciteViewPlanner}).
     *
     * @param otherShape the error for a plan that is not one projection straight over the table's
     *     scan (an aggregate, a join the rewrites made), given that plan
     * @throws TributaryException a validation error, as the SELECT path reports it, or {@code otherShape}'s
     */
    Planned plan(SqlNode parsed, Function<RelNode, TributaryException> otherShape) {
        SqlNode node = parsed;
        String extracted = extractCalls(text);
        if (!extracted.equals(text)) {
            text = extracted;
            node = parse(text);
        }
        ViewQueryConverter converter;
        RelNode rel;
        for (int rewrites = 0; ; rewrites++) {
            node = StatementRewrite.applyAll(node, DatabaseQualifiedNames.forView(alone))
                    .statement();
            converter = new ViewQueryConverter(alone);
            String again;
            try {
                SqlNode validated = converter.validate(node);
                // a date plus or minus an interval is a timestamp: cast the date and plan again
                again = rewrites < DateArithmetic.MAX_REWRITES
                        ? DateIntervalSums.rewrite(text, validated, converter.validator())
                        : null;
                if (again == null) {
                    rel = converter.convert(validated).project();
                    break;
                }
            } catch (RuntimeException e) {
                // PostgreSQL's date and interval arithmetic, written anew at the error's position
                // as for queries and views ({@code b - a < INTERVAL '1 hour'})
                try {
                    again = rewrites < DateArithmetic.MAX_REWRITES ? DateArithmetic.rewrite(text, e) : null;
                } catch (PositionedError refused) {
                    throw SqlErrors.translate(refused, new StatementPositions(query, text, node, null));
                }
                if (again == null) {
                    throw e instanceof TributaryException known
                            ? known
                            : SqlErrors.translate(e, new StatementPositions(query, text, node, null));
                }
            }
            // the extract calls the rewritten operators kept from being rewritten, as for views
            text = extractCalls(again);
            node = parse(text);
        }
        if (!(rel instanceof Project project) || !(project.getInput() instanceof TableScan scan)) {
            throw otherShape.apply(rel);
        }
        int[] columns = scan.getRowType().getFieldNames().stream()
                .mapToInt(table::columnIndex)
                .toArray();
        List<Field> fields =
                table.columns().stream().map(c -> new Field(c.name(), c.type())).toList();
        return new Planned(
                project.getProjects().get(0),
                columns,
                fields,
                converter.cluster().getRexBuilder());
    }

    /**
     * {@code sql} with its {@code extract} and {@code date_part} calls as PostgreSQL's ({@link
     * ExtractCalls}: numeric and double precision, with fractions), as queries and views have them,
     * so a CHECK or DEFAULT computes what the same expression in a query does.
     */
    private String extractCalls(String sql) {
        return ExtractCalls.rewrite(
                sql,
                () -> new ViewQueryConverter(alone).validator(),
                probe -> StatementRewrite.applyAll(probe, DatabaseQualifiedNames.forView(alone))
                        .statement(),
                false,
                false);
    }

    /** The expression as planned, over the scan's fields. Immutable. */
    static final class Planned {
        private final RexNode expression;
        private final int[] columns;
        private final List<Field> fields;
        private final RexBuilder rexBuilder;

        private Planned(RexNode expression, int[] columns, List<Field> fields, RexBuilder rexBuilder) {
            this.expression = expression;
            this.columns = columns;
            this.fields = fields;
            this.rexBuilder = rexBuilder;
        }

        /** The one projected expression; input {@code i} is the scan's field {@code i}. */
        RexNode expression() {
            return expression;
        }

        /** For each of the scan's fields, its column in the table; not to be modified. */
        int[] columns() {
            return columns;
        }

        /**
         * @return the expression over the table's full-width row (column {@code i} is input {@code i})
         * @throws TributaryException 0A000 for what {@link ExpressionCompiler} refuses to evaluate per row
         */
        ScalarExpr compile() {
            return new ExpressionCompiler(rexBuilder).compile(expression, fields, columns);
        }
    }
}

package io.tributary.sql.calcite;

import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.sql.StatementPlan;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;

/**
 * Planning-time rules of column defaults in INSERT: which columns need their DEFAULT expression
 * evaluated, {@code DEFAULT} cells of a VALUES that is planned as a query, and PostgreSQL's
 * refusal of explicit values for {@code GENERATED ALWAYS} identity columns and generated ({@code AS
 * PROCTIME()}) columns. Stateless; called by
 * {@link CalciteFrontend} on the session's thread.
 */
final class InsertDefaults {
    private InsertDefaults() {}

    /**
     * @param literalRows the statement's literal rows, or null when its source is a query (which
     *     cannot say DEFAULT in a GENERATED ALWAYS column)
     * @throws TributaryException 428C9 for a value other than DEFAULT in a GENERATED ALWAYS or generated column
     */
    static void checkGeneratedAlways(TableDef table, int[] targets, List<Object[]> literalRows) {
        for (int i = 0; i < targets.length; i++) {
            ColumnDef column = table.columns().get(targets[i]);
            boolean generated = column.generated() != null;
            if (column.identity() != ColumnDef.Identity.ALWAYS && !generated) {
                continue;
            }
            int at = i;
            if (literalRows == null || literalRows.stream().anyMatch(r -> r[at] != StatementPlan.DEFAULT)) {
                throw new TributaryException(
                        SqlState.GENERATED_ALWAYS,
                        "cannot insert a non-DEFAULT value into column \"" + column.name() + "\"",
                        0,
                        generated
                                ? "Column \"" + column.name() + "\" is a generated column."
                                : "Column \"" + column.name() + "\" is an identity column defined as GENERATED ALWAYS.",
                        generated ? null : "Use OVERRIDING SYSTEM VALUE to override.",
                        null);
            }
        }
    }

    /**
     * The columns, ascending, whose DEFAULT expression the statement needs: those it leaves out and
     * those a literal row sets to DEFAULT.
     */
    static int[] expressionColumns(TableDef table, int[] targets, List<Object[]> literalRows) {
        return IntStream.range(0, table.columns().size())
                .filter(c -> table.columns().get(c).defaultExpr() != null)
                .filter(c -> {
                    for (int i = 0; i < targets.length; i++) {
                        if (targets[i] == c) {
                            int at = i;
                            return literalRows != null
                                    && literalRows.stream().anyMatch(r -> r[at] == StatementPlan.DEFAULT);
                        }
                    }
                    return true;
                })
                .toArray();
    }

    /**
     * Replaces the {@code DEFAULT} cells of a VALUES source (one that is planned as a query) by the
     * column's DEFAULT expression, or NULL without one.
     *
     * @throws TributaryException 0A000 for DEFAULT in an identity column there
     */
    static void replaceDefaultCells(SqlNode source, TableDef table, int[] targets) {
        if (source.getKind() != SqlKind.VALUES) {
            return;
        }
        for (SqlNode rowNode : ((SqlCall) source).getOperandList()) {
            if (!(rowNode instanceof SqlCall row) || row.getKind() != SqlKind.ROW) {
                continue;
            }
            for (int i = 0; i < row.operandCount() && i < targets.length; i++) {
                if (row.operand(i).getKind() != SqlKind.DEFAULT) {
                    continue;
                }
                ColumnDef column = table.columns().get(targets[i]);
                if (column.identity() != null) {
                    throw TributaryException.notSupported(
                            "DEFAULT for an identity column in a VALUES row that also holds expressions");
                }
                row.setOperand(
                        i,
                        column.defaultExpr() == null
                                ? SqlLiteral.createNull(row.operand(i).getParserPosition())
                                : expression(column.defaultExpr()));
            }
        }
    }

    /** The parse of a column's DEFAULT expression {@code text}. */
    static SqlNode expression(String text) {
        try {
            return SqlParser.create(PgSyntaxText.rewrite(text), CalciteSettings.PARSER)
                    .parseExpression();
        } catch (SqlParseException e) {
            throw SqlErrors.translate(e, text);
        }
    }
}

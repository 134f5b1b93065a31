package io.tributary.sql.calcite;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * Gives {@code information_schema._pg_expandarray(a)} in a select list its PostgreSQL meaning, as
 * pgjdbc's {@code getPrimaryKeys}, {@code getIndexInfo} and updatable result sets use it: the
 * set-returning function expands a row into one row per element of {@code a}, with fields
 * {@code x} (the element) and {@code n} (its 1-based position). Calcite has no set-returning
 * functions in select lists, so each distinct argument becomes a {@code CROSS JOIN UNNEST(a) WITH
 * ORDINALITY AS pg__eK(x, n)} of that query block (several calls on the same array expand in
 * lockstep, as PostgreSQL's do), {@code (_pg_expandarray(a)).n} becomes {@code pg__eK.n}, and a
 * bare call becomes its {@code x}: an alias given to a bare call then stands for the element, so
 * {@code (alias).x} elsewhere in the statement becomes {@code alias}. The composite itself is never
 * returned; a query that prints it sees the element instead. One instance per statement.
 */
final class PgExpandArray extends StatementRewrite {
    private static final String FUNCTION = "_pg_expandarray";

    /** Aliases given to a bare call anywhere in the statement, lower case. */
    private final Set<String> elementAliases = new HashSet<>();

    private int next;

    /** Rewrites {@code statement}, which must be the whole statement (aliases are collected first). */
    SqlNode apply(SqlNode statement) {
        statement.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                if (call.getKind() == SqlKind.AS && isExpandArray(call.operand(0))) {
                    elementAliases.add(
                            ((SqlIdentifier) call.operand(1)).getSimple().toLowerCase(Locale.ROOT));
                }
                return super.visit(call);
            }
        });
        return statement.accept(this);
    }

    @Override
    public SqlNode visit(SqlCall call) {
        if (call.getKind() == SqlKind.DOT
                && call.operand(0) instanceof SqlIdentifier id
                && call.operand(1) instanceof SqlIdentifier field
                && field.getSimple().equalsIgnoreCase("x")
                && elementAliases.contains(id.names.get(id.names.size() - 1).toLowerCase(Locale.ROOT))) {
            return rewritten(id);
        }
        SqlNode visited = super.visit(call);
        if (visited instanceof SqlSelect select && select.getSelectList() != null) {
            expandIn(select);
        }
        return visited;
    }

    /** Replaces the calls in {@code select}'s own select list and adds their joins to its FROM. */
    private void expandIn(SqlSelect select) {
        Map<String, String> aliasByArgument = new LinkedHashMap<>();
        Map<String, SqlNode> arguments = new LinkedHashMap<>();
        boolean any = replaceSelectItems(select, new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                if (call.getKind() == SqlKind.SELECT) {
                    return call;
                }
                if (call.getKind() == SqlKind.DOT
                        && isExpandArray(call.operand(0))
                        && call.operand(1) instanceof SqlIdentifier field) {
                    return field(call.operand(0), field.getSimple().toLowerCase(Locale.ROOT));
                }
                if (isExpandArray(call)) {
                    return field(call, "x");
                }
                return super.visit(call);
            }

            private SqlNode field(SqlNode expand, String name) {
                SqlNode argument = ((SqlCall) expand).operand(0);
                String key = argument.toString();
                String alias = aliasByArgument.computeIfAbsent(key, k -> "pg__e" + next++);
                arguments.putIfAbsent(key, argument);
                return new SqlIdentifier(List.of(alias, name), expand.getParserPosition());
            }
        });
        if (!any) {
            return;
        }
        SqlNode from = select.getFrom();
        for (Map.Entry<String, String> e : aliasByArgument.entrySet()) {
            SqlParserPos pos = SqlParserPos.ZERO;
            SqlNode unnest = SqlStdOperatorTable.UNNEST_WITH_ORDINALITY.createCall(pos, arguments.get(e.getKey()));
            SqlNode named = SqlStdOperatorTable.AS.createCall(
                    pos,
                    unnest,
                    new SqlIdentifier(e.getValue(), pos),
                    new SqlIdentifier("x", pos),
                    new SqlIdentifier("n", pos));
            from = from == null
                    ? named
                    : new SqlJoin(
                            pos,
                            from,
                            SqlLiteral.createBoolean(false, pos),
                            JoinType.CROSS.symbol(pos),
                            named,
                            JoinConditionType.NONE.symbol(pos),
                            null);
        }
        select.setFrom(from);
        rewritten(select);
    }

    private static boolean isExpandArray(SqlNode node) {
        return node instanceof SqlBasicCall call
                && call.getOperator() instanceof SqlUnresolvedFunction f
                && f.getSqlIdentifier() != null
                && f.getSqlIdentifier()
                        .names
                        .get(f.getSqlIdentifier().names.size() - 1)
                        .equalsIgnoreCase(FUNCTION)
                && call.operandCount() == 1;
    }
}

package io.tributary.sql.calcite;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * Tells, before validation, whether a sub-query filters by a relation of an outer query: a
 * qualified column ({@code e.id}) in a WHERE, HAVING or join condition (its own or a nested
 * query's) whose qualifier no FROM item inside the sub-query introduces, as a table name or an
 * alias. An unqualified outer column is not seen (only validation knows where a bare name
 * resolves). Stateless; any thread.
 */
final class OuterReferences {
    private OuterReferences() {}

    /** Whether a condition of {@code select} or of a query inside it qualifies a column by an outer relation. */
    static boolean filtersByOuter(SqlSelect select) {
        Set<String> local = new HashSet<>();
        select.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call instanceof SqlSelect s && s.getFrom() != null) {
                    introduced(s.getFrom(), local);
                }
                return super.visit(call);
            }
        });
        boolean[] outer = {false};
        select.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlIdentifier id) {
                if (id.names.size() >= 2 && !local.contains(key(id.names.get(id.names.size() - 2)))) {
                    outer[0] = true;
                }
                return null;
            }

            @Override
            public Void visit(SqlCall call) {
                if (call instanceof SqlSelect s) {
                    // the conditions Calcite's decorrelation pulls above the sub-query's own work;
                    // an outer column in a FROM function's arguments (generate_series(1, a.n)) keeps
                    // the sub-query evaluated per outer row
                    for (SqlNode part : new SqlNode[] {s.getWhere(), s.getHaving()}) {
                        if (part != null) {
                            part.accept(this);
                        }
                    }
                    if (s.getFrom() != null) {
                        joinConditions(s.getFrom(), this);
                    }
                    return null;
                }
                return super.visit(call);
            }
        });
        return outer[0];
    }

    /** The names {@code from} introduces: each table's last name part and each alias. */
    private static void introduced(SqlNode from, Set<String> names) {
        if (from instanceof SqlIdentifier id) {
            names.add(key(id.names.get(id.names.size() - 1)));
        } else if (from instanceof SqlJoin join) {
            introduced(join.getLeft(), names);
            introduced(join.getRight(), names);
        } else if (from instanceof SqlCall call && call.getKind() == SqlKind.AS) {
            names.add(key(((SqlIdentifier) call.operand(1)).getSimple()));
            introduced(call.operand(0), names);
        } else if (from instanceof SqlCall call && call.getKind() == SqlKind.LATERAL) {
            introduced(call.operand(0), names);
        }
    }

    /** Visits the join conditions of a FROM clause, and those of the queries in it. */
    private static void joinConditions(SqlNode from, SqlBasicVisitor<Void> visitor) {
        if (from instanceof SqlJoin join) {
            joinConditions(join.getLeft(), visitor);
            joinConditions(join.getRight(), visitor);
            if (join.getCondition() != null && !(join.getCondition() instanceof SqlNodeList)) {
                join.getCondition().accept(visitor);
            }
        } else if (from instanceof SqlCall call
                && (call.getKind() == SqlKind.AS || call.getKind() == SqlKind.LATERAL)) {
            joinConditions(call.operand(0), visitor);
        } else if (from instanceof SqlSelect select) {
            select.accept(visitor);
        }
    }

    private static String key(String name) {
        return name.toLowerCase(Locale.ROOT);
    }
}

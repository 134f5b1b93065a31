package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * Refuses (0A000) a sub-query in the select list of a sub-query when it names a relation of a
 * query further out than the one it sits in, e.g. {@code SELECT d.id, (SELECT (SELECT max(v) FROM f
 * WHERE f.k = d.id)) FROM d}. Calcite's decorrelation binds such a reference to the row of the
 * query in between, so the answer was silently wrong: NULL for every row, or the value for the
 * middle query's first column. The same reference from a WHERE or HAVING of the middle query, or
 * from a sub-query one level in, plans right and is left alone. Only qualified references are seen
 * ({@link OuterReferences}: only validation knows where a bare name resolves). Called by {@link
 * StatementRewrite#applyAll} on the parsed statement; it changes nothing.
 */
final class SkipLevelSelectSubqueries extends StatementRewrite {
    /** The names each enclosing query's FROM introduces, innermost first. */
    private final Deque<Set<String>> scopes = new ArrayDeque<>();

    @Override
    public SqlNode visit(SqlCall call) {
        if (!(call instanceof SqlSelect select)) {
            return super.visit(call);
        }
        Set<String> names = new HashSet<>();
        if (select.getFrom() != null) {
            visibleNames(select.getFrom(), names);
        }
        if (!scopes.isEmpty()) {
            for (SqlNode item : select.getSelectList()) {
                refuseSkippingReferences(item, names);
            }
        }
        scopes.push(names);
        try {
            return super.visit(call);
        } finally {
            scopes.pop();
        }
    }

    /** Throws when a query inside {@code item} names a relation of a query outside the middle one. */
    private void refuseSkippingReferences(SqlNode item, Set<String> middle) {
        item.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call instanceof SqlSelect inner) {
                    String skipped = skippedQualifier(inner, middle);
                    if (skipped != null) {
                        throw new TributaryException(
                                SqlState.FEATURE_NOT_SUPPORTED,
                                "a sub-query in the select list of a sub-query referring to \"" + skipped
                                        + "\" of a query further out is not supported");
                    }
                    return null;
                }
                return super.visit(call);
            }
        });
    }

    /**
     * The names {@code from} makes visible, in lower case: an alias hides its table's name, as in
     * PostgreSQL ({@link OuterReferences#introduced} keeps both, erring the other way).
     */
    private static void visibleNames(SqlNode from, Set<String> names) {
        if (from instanceof SqlIdentifier id) {
            names.add(id.names.get(id.names.size() - 1).toLowerCase(Locale.ROOT));
        } else if (from instanceof SqlJoin join) {
            visibleNames(join.getLeft(), names);
            visibleNames(join.getRight(), names);
        } else if (from instanceof SqlCall call && call.getKind() == SqlKind.AS) {
            names.add(((SqlIdentifier) call.operand(1)).getSimple().toLowerCase(Locale.ROOT));
        } else if (from instanceof SqlCall call && call.getKind() == SqlKind.LATERAL) {
            visibleNames(call.operand(0), names);
        }
    }

    /** A qualifier used in {@code inner} that neither it nor {@code middle} introduces but an outer query does. */
    private String skippedQualifier(SqlSelect inner, Set<String> middle) {
        Set<String> local = new HashSet<>();
        inner.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call instanceof SqlSelect s && s.getFrom() != null) {
                    OuterReferences.introduced(s.getFrom(), local);
                }
                return super.visit(call);
            }
        });
        String[] found = {null};
        inner.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlIdentifier id) {
                if (found[0] == null && id.names.size() >= 2) {
                    String qualifier = id.names.get(id.names.size() - 2).toLowerCase(Locale.ROOT);
                    if (!local.contains(qualifier)
                            && !middle.contains(qualifier)
                            && scopes.stream().anyMatch(s -> s.contains(qualifier))) {
                        found[0] = qualifier;
                    }
                }
                return null;
            }
        });
        return found[0];
    }
}

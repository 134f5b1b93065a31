package io.tributary.sql.calcite;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;

/**
 * PostgreSQL's system column {@code tableoid} of the {@code pg_catalog} relations: every row of a
 * catalog relation carries the OID of that relation (pg_dump selects {@code x.tableoid} to name
 * the catalog an object lives in). Catalog relations do not store it, so that {@code SELECT *}
 * lists only their ordinary columns, as in PostgreSQL; instead {@code alias.tableoid}, where the
 * alias names a {@code pg_catalog} relation in FROM of the same or an enclosing SELECT, becomes
 * that relation's OID. One instance per statement.
 */
final class PgTableOid extends StatementRewrite {
    private final Map<String, Long> catalogOids;
    /** Per enclosing SELECT, alias (lower case) to the OID of the catalog relation it names. */
    private final Deque<Map<String, Long>> scopes = new ArrayDeque<>();

    /** @param catalogOids the OID of each {@code pg_catalog} relation, by its name */
    PgTableOid(Map<String, Long> catalogOids) {
        this.catalogOids = catalogOids;
    }

    @Override
    public SqlNode visit(SqlCall call) {
        if (!(call instanceof SqlSelect select)) {
            return super.visit(call);
        }
        Map<String, Long> scope = new HashMap<>(scopes.isEmpty() ? Map.of() : scopes.peek());
        if (select.getFrom() != null) {
            collect(select.getFrom(), scope);
        }
        scopes.push(scope);
        try {
            return super.visit(call);
        } finally {
            scopes.pop();
        }
    }

    @Override
    public SqlNode visit(SqlIdentifier id) {
        if (id.names.size() == 2
                && !scopes.isEmpty()
                && id.names.get(1).equalsIgnoreCase("tableoid")
                && !id.isComponentQuoted(1)) {
            Long oid = scopes.peek().get(id.names.get(0).toLowerCase(Locale.ROOT));
            if (oid != null) {
                return rewritten(SqlLiteral.createExactNumeric(Long.toString(oid), id.getParserPosition()));
            }
        }
        return id;
    }

    /** Adds the catalog relations {@code from} names, by alias (or by name when it has none). */
    private void collect(SqlNode from, Map<String, Long> scope) {
        if (from instanceof SqlJoin join) {
            collect(join.getLeft(), scope);
            collect(join.getRight(), scope);
        } else if (from instanceof SqlBasicCall as && as.getKind() == SqlKind.AS) {
            Long oid = oidOf(as.operand(0));
            if (oid != null && as.operand(1) instanceof SqlIdentifier alias) {
                scope.put(alias.getSimple().toLowerCase(Locale.ROOT), oid);
            }
        } else {
            Long oid = oidOf(from);
            if (oid != null) {
                SqlIdentifier id = (SqlIdentifier) from;
                scope.put(last(id).toLowerCase(Locale.ROOT), oid);
            }
        }
    }

    /** The OID of the {@code pg_catalog} relation {@code node} names, or null. */
    private Long oidOf(SqlNode node) {
        if (!(node instanceof SqlIdentifier id) || id.names.size() > 2) {
            return null;
        }
        if (id.names.size() == 2 && !id.names.get(0).equalsIgnoreCase("pg_catalog")) {
            return null;
        }
        return catalogOids.get(last(id).toLowerCase(Locale.ROOT));
    }

    private static String last(SqlIdentifier id) {
        return id.names.get(id.names.size() - 1);
    }
}

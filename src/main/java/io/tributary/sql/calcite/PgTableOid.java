package io.tributary.sql.calcite;

import io.tributary.catalog.pg.PgTable;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
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
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Two things of the {@code pg_catalog} relations that Calcite cannot see in their columns.
 * PostgreSQL's system column {@code tableoid}: every row of a catalog relation carries the OID of
 * that relation (pg_dump selects {@code x.tableoid} to name the catalog an object lives in).
 * Catalog relations do not store it, so that {@code SELECT *} lists only their ordinary columns,
 * as in PostgreSQL; instead {@code alias.tableoid}, where the alias names a {@code pg_catalog}
 * relation in FROM of the same or an enclosing SELECT, becomes that relation's OID, and so does a
 * bare {@code tableoid} in a SELECT whose FROM is that one relation. And subscripts of a
 * {@code name} column: a name is a fixed array of characters in PostgreSQL, so {@code typname[0]}
 * is its first character; such columns are text here, and the subscript becomes a substring. One
 * instance per statement.
 */
final class PgTableOid extends StatementRewrite {
    /** The key under which a scope holds the sole relation of its SELECT's FROM, for bare names. */
    private static final String SOLE = "";

    private final Map<String, PgTable> catalog;
    /** Per enclosing SELECT, alias (lower case) to the catalog relation it names. */
    private final Deque<Map<String, PgTable>> scopes = new ArrayDeque<>();

    /** @param catalog the {@code pg_catalog} relations */
    PgTableOid(List<PgTable> catalog) {
        this.catalog = new HashMap<>();
        for (PgTable t : catalog) {
            this.catalog.put(t.name(), t);
        }
    }

    @Override
    public SqlNode visit(SqlCall call) {
        if (call.getKind() == SqlKind.ITEM
                && call.operand(0) instanceof SqlIdentifier id
                && call.operand(1) instanceof SqlLiteral index
                && isNameColumn(id)) {
            SqlParserPos pos = call.getParserPosition();
            SqlNode from = SqlStdOperatorTable.PLUS.createCall(pos, index, SqlLiteral.createExactNumeric("1", pos));
            return rewritten(
                    SqlStdOperatorTable.SUBSTRING.createCall(pos, id, from, SqlLiteral.createExactNumeric("1", pos)));
        }
        if (!(call instanceof SqlSelect select)) {
            return super.visit(call);
        }
        Map<String, PgTable> scope = new HashMap<>(scopes.isEmpty() ? Map.of() : scopes.peek());
        scope.remove(SOLE);
        if (select.getFrom() != null) {
            collect(select.getFrom(), scope);
            PgTable sole = relationOf(select.getFrom());
            if (sole != null) {
                scope.put(SOLE, sole);
            }
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
        if (scopes.isEmpty()
                || !id.names.get(id.names.size() - 1).equalsIgnoreCase("tableoid")
                || id.isComponentQuoted(id.names.size() - 1)) {
            return id;
        }
        PgTable table = owner(id);
        if (table != null) {
            return rewritten(SqlLiteral.createExactNumeric(Long.toString(table.oid()), id.getParserPosition()));
        }
        return id;
    }

    /** The catalog relation a column reference {@code x} or {@code alias.x} reads, or null. */
    private PgTable owner(SqlIdentifier id) {
        if (id.names.size() == 2) {
            return scopes.peek().get(id.names.get(0).toLowerCase(Locale.ROOT));
        }
        return id.names.size() == 1 ? scopes.peek().get(SOLE) : null;
    }

    private boolean isNameColumn(SqlIdentifier id) {
        if (scopes.isEmpty()) {
            return false;
        }
        PgTable table = owner(id);
        String column = id.names.get(id.names.size() - 1);
        return table != null
                && table.columns().stream()
                        .anyMatch(c ->
                                c.name().equalsIgnoreCase(column) && c.pgType().equals("name"));
    }

    /** Adds the catalog relations {@code from} names, by alias (or by name when it has none). */
    private void collect(SqlNode from, Map<String, PgTable> scope) {
        if (from instanceof SqlJoin join) {
            collect(join.getLeft(), scope);
            collect(join.getRight(), scope);
        } else if (from instanceof SqlBasicCall as && as.getKind() == SqlKind.AS) {
            PgTable table = relationOf(as.operand(0));
            if (table != null && as.operand(1) instanceof SqlIdentifier alias) {
                scope.put(alias.getSimple().toLowerCase(Locale.ROOT), table);
            }
        } else {
            PgTable table = relationOf(from);
            if (table != null) {
                SqlIdentifier id = (SqlIdentifier) from;
                scope.put(last(id).toLowerCase(Locale.ROOT), table);
            }
        }
    }

    /** The {@code pg_catalog} relation {@code node} names (with or without an alias), or null. */
    private PgTable relationOf(SqlNode node) {
        if (node instanceof SqlBasicCall as && as.getKind() == SqlKind.AS) {
            return relationOf(as.operand(0));
        }
        if (!(node instanceof SqlIdentifier id) || id.names.size() > 2) {
            return null;
        }
        if (id.names.size() == 2 && !id.names.get(0).equalsIgnoreCase("pg_catalog")) {
            return null;
        }
        return catalog.get(last(id).toLowerCase(Locale.ROOT));
    }

    private static String last(SqlIdentifier id) {
        return id.names.get(id.names.size() - 1);
    }
}

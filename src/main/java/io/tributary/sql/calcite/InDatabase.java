package io.tributary.sql.calcite;

import io.tributary.catalog.Catalog;
import java.util.List;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;

/**
 * Binds the FROM names of a plain view's query to the database holding the view, for reading that
 * view from another database: a name of a relation of that database ({@code t}, {@code s.t}) becomes
 * {@code db.schema.t}, which {@link DatabaseQualifiedNames} then reads there. Names that are no
 * relation of that database (common table expressions, system tables) and names already three-part
 * stay as written. Runs after the view's own plain views were expanded in its database
 * ({@link ViewExpansion}). One instance per expanded view, on the planning thread.
 */
final class InDatabase extends StatementRewrite {
    private final Catalog home;

    /** @param home the catalog of the database holding the view */
    InDatabase(Catalog home) {
        this.home = home;
    }

    @Override
    public SqlNode visit(SqlCall call) {
        if (call instanceof SqlSelect select && select.getFrom() != null) {
            select.setFrom(fromItem(select.getFrom()));
        }
        return super.visit(call);
    }

    private SqlNode fromItem(SqlNode from) {
        if (from instanceof SqlJoin join) {
            join.setLeft(fromItem(join.getLeft()));
            join.setRight(fromItem(join.getRight()));
            return join;
        }
        if (from.getKind() == SqlKind.AS && from instanceof SqlBasicCall as) {
            as.setOperand(0, fromItem(as.operand(0)));
            return as;
        }
        if (!(from instanceof SqlIdentifier id) || id.names.size() > 2) {
            return from;
        }
        String schema = id.names.size() == 2 ? id.names.get(0) : Catalog.SCHEMA;
        String name = id.names.get(id.names.size() - 1);
        if (home.table(Catalog.key(schema, name)).isEmpty()) {
            return from;
        }
        return rewritten(new SqlIdentifier(List.of(home.database(), schema, name), id.getParserPosition()));
    }
}

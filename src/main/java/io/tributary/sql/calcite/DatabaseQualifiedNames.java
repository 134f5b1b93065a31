package io.tributary.sql.calcite;

import io.tributary.catalog.Catalog;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUpdate;

/**
 * Relation names of three parts ({@code database.schema.relation}) in FROM and as DML targets, as
 * PostgreSQL reads them: the session's own database is dropped from the name; any other is 0A000
 * "cross-database references are not implemented", for queries, views and DML alike. One instance per
 * statement, on the session's thread (or the view planner's).
 */
final class DatabaseQualifiedNames extends StatementRewrite {
    private final String database;
    /** The catalog whose peers a materialized view may read, or null where no other database may be named. */
    private final Catalog viewCatalog;

    /** @param database the database the statement runs in */
    DatabaseQualifiedNames(String database) {
        this.database = database;
        this.viewCatalog = null;
    }

    /**
     * For a materialized view's query in {@code catalog}'s database: a name in another database of
     * the cluster stays three-part, for {@link ForeignDatabaseSchema} to resolve; a database that does
     * not exist is 3D000.
     */
    DatabaseQualifiedNames(Catalog catalog) {
        this.database = catalog.database();
        this.viewCatalog = catalog;
    }

    @Override
    public SqlNode visit(SqlCall call) {
        if (call instanceof SqlSelect select && select.getFrom() != null) {
            select.setFrom(fromItem(select.getFrom()));
        } else if (call instanceof SqlInsert insert) {
            insert.setOperand(1, fromItem(insert.getTargetTable()));
        } else if (call instanceof SqlUpdate update) {
            update.setOperand(0, fromItem(update.getTargetTable()));
        } else if (call instanceof SqlDelete delete) {
            delete.setOperand(0, fromItem(delete.getTargetTable()));
        }
        return super.visit(call);
    }

    private SqlNode fromItem(SqlNode from) {
        if (from instanceof SqlJoin join) {
            join.setLeft(fromItem(join.getLeft()));
            join.setRight(fromItem(join.getRight()));
            return join;
        }
        if (from instanceof SqlCall as && as.getKind() == SqlKind.AS) {
            as.setOperand(0, fromItem(as.operand(0)));
            return as;
        }
        if (from instanceof SqlIdentifier id && id.names.size() == 3) {
            if (viewCatalog != null && !id.names.get(0).equals(database)) {
                String other = id.names.get(0);
                if (viewCatalog.peer(other).isEmpty()) {
                    throw new TributaryException(
                            SqlState.INVALID_CATALOG_NAME,
                            "database \"" + other + "\" does not exist (in \"" + String.join(".", id.names) + "\")");
                }
                if (!id.names.get(1).equals(Catalog.SCHEMA)) {
                    throw Catalog.undefinedTable(String.join(".", id.names));
                }
                return from;
            }
            if (!id.names.get(0).equals(database)) {
                throw new TributaryException(
                        SqlState.FEATURE_NOT_SUPPORTED,
                        "cross-database references are not implemented: \"" + String.join(".", id.names) + "\"");
            }
            return rewritten(id.getComponent(1, 3));
        }
        return from;
    }
}

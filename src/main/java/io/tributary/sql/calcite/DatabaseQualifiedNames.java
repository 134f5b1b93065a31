package io.tributary.sql.calcite;

import io.tributary.catalog.Catalog;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUpdate;

/**
 * Relation names of three parts ({@code database.schema.relation}) in FROM and as DML targets: the
 * statement's own database is dropped from the name. A name in another database of the cluster is
 * read from there (docs/ARCHITECTURE.md, Cross-database queries): in a session's statement it is
 * rewritten to the same name under {@link PeerDatabasesSchema}; in a materialized view's query it
 * stays three-part, for {@link ForeignDatabaseSchema} to resolve. A database that does not exist is
 * 3D000, a relation it lacks 42P01, and another database's table as a DML target 0A000. One
 * instance per statement, on the session's thread (or the view planner's).
 */
final class DatabaseQualifiedNames extends StatementRewrite {
    private final Catalog catalog;
    /** Whether the statement is a materialized view's query, whose inputs keep their three-part names. */
    private final boolean view;

    private DatabaseQualifiedNames(Catalog catalog, boolean view) {
        this.catalog = catalog;
        this.view = view;
    }

    /** For a statement of a session connected to {@code catalog}'s database. */
    static DatabaseQualifiedNames forStatement(Catalog catalog) {
        return new DatabaseQualifiedNames(catalog, false);
    }

    /** For the query of a materialized view being created in {@code catalog}'s database. */
    static DatabaseQualifiedNames forView(Catalog catalog) {
        return new DatabaseQualifiedNames(catalog, true);
    }

    @Override
    public SqlNode visit(SqlCall call) {
        if (call instanceof SqlSelect select) {
            FromItems.replaceIn(select, (item, alias) -> fromItem(item, alias, false));
        } else if (call instanceof SqlInsert insert) {
            insert.setOperand(
                    1, FromItems.replace(insert.getTargetTable(), (item, alias) -> fromItem(item, alias, true)));
        } else if (call instanceof SqlUpdate update) {
            update.setOperand(
                    0, FromItems.replace(update.getTargetTable(), (item, alias) -> fromItem(item, alias, true)));
        } else if (call instanceof SqlDelete delete) {
            delete.setOperand(
                    0, FromItems.replace(delete.getTargetTable(), (item, alias) -> fromItem(item, alias, true)));
        }
        return super.visit(call);
    }

    /**
     * A FROM item (see {@link FromItems.Replacer}) with its three-part name resolved; {@code target}
     * when it is what DML writes.
     */
    private SqlNode fromItem(SqlNode from, SqlCall alias, boolean target) {
        if (!(from instanceof SqlIdentifier id) || id.names.size() != 3) {
            return FromItems.unchanged(from, alias);
        }
        String other = id.names.get(0);
        if (other.equals(catalog.database())) {
            return FromItems.withRelation(alias, rewritten(id.getComponent(1, 3)));
        }
        String written = String.join(".", id.names);
        if (target) {
            throw new TributaryException(
                    SqlState.FEATURE_NOT_SUPPORTED,
                    "cross-database references are not implemented: \"" + written
                            + "\" cannot be written from database \"" + catalog.database() + "\"");
        }
        Catalog peer = catalog.peer(other)
                .orElseThrow(() -> new TributaryException(
                        SqlState.INVALID_CATALOG_NAME,
                        "database \"" + other + "\" does not exist (in \"" + written + "\")"));
        String schema = id.names.get(1);
        String key = Catalog.key(schema, id.names.get(2));
        if (view) {
            if (peer.table(key).isEmpty() && peer.view(key).isEmpty()) {
                throw Catalog.undefinedTable(written);
            }
            return FromItems.unchanged(from, alias);
        }
        if (peer.table(key).isPresent()) {
            return FromItems.withRelation(
                    alias,
                    rewritten(new SqlIdentifier(
                            List.of(PeerDatabasesSchema.NAME, other, schema, id.names.get(2)),
                            id.getParserPosition())));
        }
        if (peer.view(key).isPresent()) {
            throw TributaryException.notSupported("reading a plain view of another database (\"" + written + "\")");
        }
        throw Catalog.undefinedTable(written);
    }
}

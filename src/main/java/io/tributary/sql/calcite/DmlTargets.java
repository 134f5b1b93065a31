package io.tributary.sql.calcite;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.SystemTables;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.List;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;

/**
 * Resolves the table an INSERT, UPDATE or DELETE writes, through the session's search path, and
 * the columns it names. Owned by one session's {@link CalciteFrontend}; not thread-safe.
 */
final class DmlTargets {
    private final Catalog catalog;
    private final SystemTables systemTables;
    private final SessionSchemas schemas;

    DmlTargets(Catalog catalog, SystemTables systemTables, SessionSchemas schemas) {
        this.catalog = catalog;
        this.systemTables = systemTables;
        this.schemas = schemas;
    }

    /**
     * The table {@code target} names.
     *
     * @throws TributaryException 0A000 for a target that is not a name or names a view, 42P01 for
     *     no such table, 42809 for a materialized view, a system table's refusal for one of those
     */
    TableDef table(SqlNode target) {
        if (!(target instanceof SqlIdentifier id)) {
            throw TributaryException.notSupported("this DML target");
        }
        List<String> names = id.names;
        if (names.size() > 1 && names.get(names.size() - 2).equals(SystemTables.SCHEMA)) {
            throw SystemTables.cannotChange(
                    systemTables.require(names.get(names.size() - 1)).name());
        }
        String name = names.get(names.size() - 1);
        String key = names.size() > 1
                ? Catalog.key(names.get(names.size() - 2), name)
                : catalog.resolve(schemas.searchPath(), name);
        if (catalog.view(key).isPresent()) {
            throw TributaryException.notSupported("INSERT, UPDATE and DELETE on a view");
        }
        TableDef table = catalog.table(key)
                .orElseThrow(() -> Catalog.undefinedTable(names.size() > 1 ? String.join(".", names) : name));
        if (table.isView()) {
            throw new TributaryException(
                    SqlState.WRONG_OBJECT_TYPE, "cannot change materialized view \"" + table.name() + "\"");
        }
        return table;
    }

    /** The indexes in {@code table} of the columns {@code columnList} names; its visible columns when null. */
    static int[] columns(TableDef table, SqlNodeList columnList) {
        if (columnList == null) {
            return table.targetColumns(List.of());
        }
        return table.targetColumns(columnList.stream()
                .map(n -> ((SqlIdentifier) n).names.get(((SqlIdentifier) n).names.size() - 1))
                .toList());
    }
}

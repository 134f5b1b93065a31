package io.tributary.meta.system;

import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.SystemTable;
import java.util.List;

/**
 * A system table showing engine state, with the name and columns it is made with; subclasses
 * supply only {@link #rows()}. Name and columns never change, as {@link SystemTable} requires.
 */
abstract class EngineStateTable implements SystemTable {
    private final String name;
    private final List<ColumnDef> columns;

    EngineStateTable(String name, ColumnDef... columns) {
        this.name = name;
        this.columns = List.of(columns);
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final List<ColumnDef> columns() {
        return columns;
    }
}

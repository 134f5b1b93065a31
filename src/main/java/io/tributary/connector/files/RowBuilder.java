package io.tributary.connector.files;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.Values;
import io.tributary.connector.SourceColumn;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Converts field texts to a row of the table's column types (PostgreSQL text input rules) and
 * checks that primary-key columns are not null. Immutable and thread-safe.
 */
final class RowBuilder {
    private final List<SourceColumn> columns;
    private final int[] primaryKey;
    private final Map<String, Integer> byLowerName = new HashMap<>();

    RowBuilder(List<SourceColumn> columns, int[] primaryKey) {
        this.columns = List.copyOf(columns);
        this.primaryKey = primaryKey.clone();
        for (int i = 0; i < columns.size(); i++) {
            byLowerName.putIfAbsent(columns.get(i).name().toLowerCase(Locale.ROOT), i);
        }
    }

    int width() {
        return columns.size();
    }

    /** The index of the column named {@code name} (case-insensitively), or -1. */
    int columnIndex(String name) {
        Integer i = byLowerName.get(name.toLowerCase(Locale.ROOT));
        return i == null ? -1 : i;
    }

    String columnName(int index) {
        return columns.get(index).name();
    }

    /** The canonical value of column {@code index} for {@code text} (null stays null). */
    Object convert(int index, String text) throws MalformedRecordException {
        if (text == null) {
            return null;
        }
        try {
            return Values.assign(text, null, columns.get(index).type());
        } catch (TributaryException e) {
            throw new MalformedRecordException(
                    e.sqlState(), "column " + columns.get(index).name() + ": " + e.getMessage());
        }
    }

    /** Returns {@code row} once its primary-key columns are known to be set. */
    Object[] checked(Object[] row) throws MalformedRecordException {
        for (int k : primaryKey) {
            if (row[k] == null) {
                throw new MalformedRecordException(
                        SqlState.NOT_NULL_VIOLATION,
                        "primary key column " + columns.get(k).name() + " is null");
            }
        }
        return row;
    }
}

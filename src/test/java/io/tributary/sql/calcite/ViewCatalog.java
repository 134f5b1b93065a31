package io.tributary.sql.calcite;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.RelationKind;
import io.tributary.catalog.TableDef;
import io.tributary.common.types.DataType;
import java.util.List;

/** The catalog the view planner tests plan against. */
final class ViewCatalog {
    static final int T = 1;
    static final int U = 2;
    static final int R = 3;
    static final int M1 = 4;

    private ViewCatalog() {}

    /**
     * {@code t} (primary key id, a column of every type), {@code u} (primary key id, tid joins
     * t.id), {@code r} (no primary key: hidden {@code _row_id}) and {@code m1}, a view over r
     * grouped by a whose key is its hidden column.
     */
    static Catalog create() {
        Catalog c = new Catalog();
        c.put(new TableDef(
                T,
                "t",
                List.of(
                        column("id", DataType.BIGINT),
                        column("v", DataType.INTEGER),
                        column("s", DataType.TEXT),
                        column("n", DataType.numeric(10, 2)),
                        column("ts", DataType.TIMESTAMP),
                        column("b", DataType.BOOLEAN),
                        column("sm", DataType.SMALLINT),
                        column("re", DataType.REAL),
                        column("db", DataType.DOUBLE),
                        column("d", DataType.DATE),
                        column("tm", DataType.TIME),
                        column("iv", DataType.INTERVAL),
                        column("bt", DataType.BYTEA),
                        column("tz", DataType.TIMESTAMPTZ),
                        column("vc", DataType.varchar(5)),
                        column("un", DataType.NUMERIC)),
                new int[] {0},
                "CREATE TABLE t (...)"));
        c.put(new TableDef(
                U,
                "u",
                List.of(column("id", DataType.BIGINT), column("tid", DataType.BIGINT), column("w", DataType.INTEGER)),
                new int[] {0},
                "CREATE TABLE u (...)"));
        c.put(new TableDef(
                R,
                "r",
                List.of(
                        column("a", DataType.INTEGER),
                        column("x", DataType.TEXT),
                        new ColumnDef(TableDef.ROW_ID, DataType.BIGINT, true, true)),
                new int[] {2},
                "CREATE TABLE r (...)"));
        c.put(new TableDef(
                M1,
                "m1",
                List.of(
                        column("x", DataType.TEXT),
                        column("total", DataType.BIGINT),
                        new ColumnDef("_key0", DataType.INTEGER, false, true)),
                new int[] {2, 0},
                "CREATE MATERIALIZED VIEW m1 AS ...",
                RelationKind.MATERIALIZED_VIEW,
                "SELECT x, sum(a) AS total FROM r GROUP BY a, x",
                new int[] {R},
                new int[] {10, 11},
                1));
        return c;
    }

    private static ColumnDef column(String name, DataType type) {
        return new ColumnDef(name, type, false, false);
    }
}

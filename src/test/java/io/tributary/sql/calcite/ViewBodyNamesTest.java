package io.tributary.sql.calcite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.SchemaDef;
import io.tributary.catalog.SearchPath;
import io.tributary.catalog.TableDef;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Where {@link ViewBodyNames} writes a schema into a stored query: before unqualified FROM names
 * the path finds outside {@code public}, keeping the rest of the text as written.
 */
class ViewBodyNamesTest {
    private static final SearchPath S_FIRST = new SearchPath(List.of("s", "public"));

    private static Catalog catalog() {
        Catalog c = new Catalog();
        c.putSchema(new SchemaDef("s", 100));
        c.putSchema(new SchemaDef("Odd", 101));
        List<ColumnDef> columns = List.of(new ColumnDef("k", DataType.INTEGER, false, false));
        c.put(new TableDef(1, "s.t", columns, new int[] {0}, "").inSchema("s"));
        c.put(new TableDef(2, "p", columns, new int[] {0}, ""));
        c.put(new TableDef(3, "t", columns, new int[] {0}, ""));
        c.put(new TableDef(4, "Odd.x", columns, new int[] {0}, "").inSchema("Odd"));
        return c;
    }

    @Test
    void qualifiesNamesFoundOutsidePublic() {
        Catalog c = catalog();
        assertEquals("SELECT k FROM s.t", ViewBodyNames.qualify("SELECT k FROM t", c, S_FIRST));
        assertEquals(
                "SELECT a.k FROM s.t a JOIN p ON p.k = a.k",
                ViewBodyNames.qualify("SELECT a.k FROM t a JOIN p ON p.k = a.k", c, S_FIRST));
        assertEquals(
                "SELECT k\n\tFROM  s.\"t\" AS x WHERE k IN (SELECT k FROM s.T)",
                ViewBodyNames.qualify("SELECT k\n\tFROM  \"t\" AS x WHERE k IN (SELECT k FROM T)", c, S_FIRST));
        assertEquals(
                "SELECT * FROM \"Odd\".x", ViewBodyNames.qualify("SELECT * FROM x", c, new SearchPath(List.of("Odd"))));
    }

    @Test
    void leavesPublicNamesQualifiedNamesAndCtesAlone() {
        Catalog c = catalog();
        for (String query : List.of(
                "SELECT k FROM p",
                "SELECT k FROM public.t",
                "SELECT k FROM s.t",
                "WITH t AS (SELECT 1 AS k) SELECT k FROM t",
                "SELECT extract(year FROM DATE '2024-01-01')",
                "SELECT k FROM nosuch",
                "not a query")) {
            assertEquals(query, ViewBodyNames.qualify(query, c, S_FIRST), query);
        }
        assertEquals("SELECT k FROM t", ViewBodyNames.qualify("SELECT k FROM t", c, new SearchPath(List.of("public"))));
    }

    @Test
    void aPublicNameThePathDoesNotReachStaysMissing() {
        assertEquals(
                "SELECT k FROM s.p", ViewBodyNames.qualify("SELECT k FROM p", catalog(), new SearchPath(List.of("s"))));
    }

    @Test
    void refusesWhenARewriteMovesTheText() {
        TributaryException e = assertThrows(
                TributaryException.class,
                () -> ViewBodyNames.qualify(
                        "SELECT k FROM t WHERE INTERVAL '1 day' > INTERVAL '1 hour'", catalog(), S_FIRST));
        assertEquals("0A000", e.sqlState());
    }
}

package io.tributary.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tributary.common.TributaryException;
import org.junit.jupiter.api.Test;

/** CREATE, DROP and SHOW DATABASES, and relation names qualified by a database, as parsed. */
class DatabaseDdlParserTest {
    private static UtilityStatement parse(String sql) {
        return UtilityParser.parse(sql, "a").orElseThrow();
    }

    private static String sqlState(String sql) {
        return assertThrows(TributaryException.class, () -> UtilityParser.parse(sql, "a"))
                .sqlState();
    }

    @Test
    void databaseStatements() {
        assertEquals(new UtilityStatement.CreateDatabase("shop"), parse("CREATE DATABASE Shop;"));
        assertEquals(new UtilityStatement.CreateDatabase("My Shop"), parse("create database \"My Shop\""));
        assertEquals(new UtilityStatement.DropDatabase("shop", false), parse("DROP DATABASE shop"));
        assertEquals(new UtilityStatement.DropDatabase("shop", true), parse("DROP DATABASE IF EXISTS shop"));
        assertEquals(new UtilityStatement.ShowDatabases(), parse("SHOW DATABASES"));
        assertEquals("0A000", sqlState("CREATE DATABASE shop OWNER root"));
        assertEquals("0A000", sqlState("CREATE DATABASE shop WITH ENCODING 'UTF8'"));
        assertEquals("0A000", sqlState("DROP DATABASE shop WITH (FORCE)"));
        assertEquals("42601", sqlState("CREATE DATABASE"));
    }

    @Test
    void relationNamesQualifiedByADatabase() {
        assertEquals(new UtilityStatement.Truncate(java.util.List.of("t"), false), parse("TRUNCATE a.public.t"));
        assertEquals("0A000", sqlState("TRUNCATE b.public.t"));
        assertEquals("3F000", sqlState("TRUNCATE a.other.t"), "PostgreSQL: schema \"other\" does not exist");
        assertEquals("42601", sqlState("TRUNCATE w.a.public.t"));
    }
}

package io.tributary.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class StatementSplitterTest {
    private static List<String> statements(String text) {
        return StatementSplitter.split(text).stream()
                .map(StatementSplitter.Piece::sql)
                .toList();
    }

    @Test
    void aSemicolonInsideAQuotedConstantOrNameDoesNotSplit() {
        assertEquals(List.of("select 'a;b'", "select 2"), statements("select 'a;b'; select 2;"));
        assertEquals(List.of("select 'it''s;'", "select 2"), statements("select 'it''s;'; select 2"));
        assertEquals(List.of("select 1 as \"x;y\""), statements("select 1 as \"x;y\";"));
    }

    @Test
    void anEscapedQuoteDoesNotCloseAnEscapeStringConstant() {
        // psql -f sends each statement with its semicolon: E'\'' must not swallow it
        assertEquals(List.of("select E'\\''"), statements("select E'\\'';"));
        assertEquals(
                List.of("select 1", "select e'\\'' as x", "select 2"),
                statements("select 1; select e'\\'' as x; select 2"));
        assertEquals(List.of("select E'a\\';b'"), statements("select E'a\\';b'"));
    }

    @Test
    void aBackslashEndsNothingSpecialOutsideEscapeStrings() {
        // standard strings: the backslash is an ordinary character, the quote after it closes
        assertEquals(List.of("select '\\'", "select 2"), statements("select '\\'; select 2"));
        assertEquals(List.of("select name'\\'", "select 2"), statements("select name'\\'; select 2"));
    }
}

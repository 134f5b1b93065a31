package io.tributary.sql.calcite;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The tokens {@link PgTokenizer} reads, as PostgreSQL's lexer would. */
class PgTokenizerTest {
    @Test
    void quotedTextIsOneTokenAndCommentsAreLeftOut() {
        assertEquals(
                List.of(
                        "select:WORD",
                        "e'a\\'b':STRING",
                        ",:COMMA",
                        "'it''s':STRING",
                        ",:COMMA",
                        "\"a\"\"b\":QUOTED_NAME",
                        "from:WORD",
                        "t:WORD"),
                read("SELECT E'a\\'b', 'it''s', \"a\"\"b\" -- c\n/* d */ FROM t"));
        assertEquals(List.of("x'1f':STRING", "b'01':STRING"), read("X'1F' B'01'"));
    }

    @Test
    void operatorsAreTheLongestRunWithPostgresTrailingSignRule() {
        assertEquals(List.of("a:WORD", "*:OPERATOR", "-:OPERATOR", "b:WORD"), read("a*-b"));
        assertEquals(List.of("a:WORD", "|-:OPERATOR", "b:WORD"), read("a|-b"));
        assertEquals(List.of("||/:OPERATOR", "x:WORD", ">>:OPERATOR", "2:NUMBER"), read("||/x>>2"));
        assertEquals(List.of("a:WORD", "+:OPERATOR", "b:WORD"), read("a+--c\nb"));
    }

    @Test
    void numbersParametersCastsAndBrackets() {
        assertEquals(
                List.of(
                        "1e-3:NUMBER",
                        ":::CAST",
                        "float8:WORD",
                        "[:OPEN_BRACKET",
                        "]:CLOSE_BRACKET",
                        "$1:PARAMETER",
                        ".5:NUMBER",
                        "s:WORD",
                        ".:DOT",
                        "t:WORD",
                        "(:OPEN",
                        "):CLOSE",
                        ";:OTHER"),
                read("1e-3::float8[] $1 .5 s.t();"));
    }

    @Test
    void dollarQuotingAndOpenQuotesAreMarked() {
        // a word goes on over $, as in PostgreSQL
        assertEquals(List.of("$:DOLLAR", "$:DOLLAR", "x$$:WORD"), read("$$x$$"));
        assertEquals(List.of("select:WORD", "'abc:UNTERMINATED"), read("SELECT 'abc"));
        assertEquals(List.of("\"a:UNTERMINATED"), read("\"a"));
    }

    private static List<String> read(String sql) {
        return PgTokenizer.tokens(sql).stream()
                .map(t -> {
                    assertEquals(t.lower(), sql.substring(t.start(), t.end()).toLowerCase(java.util.Locale.ROOT));
                    return t.lower() + ":" + t.kind();
                })
                .toList();
    }
}

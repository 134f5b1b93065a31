package io.tributary.common.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Both CSV dialects: PostgreSQL's COPY CSV and RFC 4180 as the files connector reads it. */
class CsvTokenizerTest {
    private static final CsvTokenizer COPY_DEFAULT = CsvTokenizer.postgres(',', '"', '"', "");
    private static final CsvTokenizer RFC = CsvTokenizer.rfc4180(',');

    private static List<String> split(CsvTokenizer t, String record) {
        List<String> out = new ArrayList<>();
        t.split(record, out);
        return out;
    }

    private static int recordEnd(CsvTokenizer t, String text) {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        return t.recordEnd(b, 0, b.length);
    }

    @Test
    void postgresNullIsTheUnquotedNullStringAndAQuotedEmptyStringIsEmpty() {
        assertEquals(Arrays.asList("1", null, "", "x"), split(COPY_DEFAULT, "1,,\"\",x"));
        assertEquals(Arrays.asList((String) null), split(COPY_DEFAULT, ""));
        CsvTokenizer nullWord = CsvTokenizer.postgres(',', '"', '"', "NULL");
        assertEquals(Arrays.asList(null, "NULL", ""), split(nullWord, "NULL,\"NULL\","));
    }

    @Test
    void postgresQuotesAndEscapes() {
        assertEquals(List.of("a,b", "say \"hi\""), split(COPY_DEFAULT, "\"a,b\",\"say \"\"hi\"\"\""));
        // a quote anywhere opens a quoted section, as in PostgreSQL
        assertEquals(List.of("ab,cd", "e"), split(COPY_DEFAULT, "a\"b,c\"d,e"));
        CsvTokenizer backslash = CsvTokenizer.postgres(';', '\'', '\\', "");
        assertEquals(List.of("it's", "a;b", "x\\y"), split(backslash, "'it\\'s';'a;b';'x\\y'"));
        // left open at the end of input: the section ends there
        assertEquals(List.of("a", "open"), split(COPY_DEFAULT, "a,\"open"));
    }

    @Test
    void postgresRecordsSpanNewlinesInsideQuotes() {
        assertEquals(4, recordEnd(COPY_DEFAULT, "1,a\n2,b\n"));
        assertEquals(-1, recordEnd(COPY_DEFAULT, "1,\"a\nb"));
        assertEquals(8, recordEnd(COPY_DEFAULT, "1,\"a\nb\"\n2"));
        assertEquals(11, recordEnd(COPY_DEFAULT, "1,x\"a\n\"\"b\"\n"));
        CsvTokenizer backslash = CsvTokenizer.postgres(',', '"', '\\', "");
        // an escaped quote does not close the section
        assertEquals(-1, recordEnd(backslash, "1,\"a\\\"\n"));
        assertEquals(8, recordEnd(backslash, "1,\"a\\\"\"\n"));
    }

    @Test
    void rfc4180Fields() {
        assertEquals(
                Arrays.asList("1", null, "", "a,b", "say \"hi\""), split(RFC, "1,,\"\",\"a,b\",\"say \"\"hi\"\"\""));
        // a quote inside an unquoted field is kept
        assertEquals(List.of("5\" pipe", "x"), split(RFC, "5\" pipe,x"));
        assertEquals(Arrays.asList("a", null), split(RFC, "a,"));
        assertEquals(List.of("line 1\nline 2"), split(RFC, "\"line 1\nline 2\""));
        CsvTokenizer tabs = CsvTokenizer.rfc4180('\t');
        assertEquals(List.of("a,b", "c"), split(tabs, "a,b\tc"));
    }

    @Test
    void rfc4180Errors() {
        TributaryException e = assertThrows(TributaryException.class, () -> split(RFC, "1,\"open"));
        assertEquals(SqlState.BAD_COPY_FILE_FORMAT, e.sqlState());
        assertEquals("unterminated quoted field", e.getMessage());
        e = assertThrows(TributaryException.class, () -> split(RFC, "\"a\"b,c"));
        assertEquals("unexpected character after a closing quote at position 4", e.getMessage());
    }

    @Test
    void rfc4180RecordsSpanNewlinesOnlyInsideFieldsThatStartQuoted() {
        assertEquals(-1, recordEnd(RFC, "1,\"a\nb"));
        assertEquals(8, recordEnd(RFC, "1,\"a\nb\"\n"));
        // here the quote is mid-field, so it is text and the newline ends the record
        assertEquals(6, recordEnd(RFC, "1,x\"a\nb\"\n"));
        // a quote at the end of the buffer may be the first of a doubled pair: undecided
        assertEquals(-1, recordEnd(RFC, "1,\"a\""));
        assertEquals(9, recordEnd(RFC, "1,\"a\"\"\n\"\n"));
    }
}

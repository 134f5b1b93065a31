package io.tributary.sql.calcite;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Offsets of a rewritten statement mapped back to the client's text. */
class TextShiftsTest {
    /** The 1-based offset of {@code token} in {@code rewritten} mapped back, against its offset in {@code client}. */
    private static void mapsBack(String client, String rewritten, String token) {
        int in = rewritten.indexOf(token) + 1;
        assertEquals(
                client.indexOf(token) + 1, TextShifts.between(client, rewritten).toClient(in), token);
    }

    @Test
    void unchangedTextMapsToItself() {
        String sql = "SELECT a FROM t";
        assertEquals(8, TextShifts.between(sql, sql).toClient(8));
        assertEquals(0, TextShifts.between(sql, sql).toClient(0));
    }

    @Test
    void tokensAfterARewrittenIntervalMapBack() {
        String client = "SELECT INTERVAL '2 hours', x, '1 day'::interval, nosuch FROM t";
        String rewritten = PgSyntaxText.rewrite(client);
        mapsBack(client, rewritten, "x,");
        mapsBack(client, rewritten, "nosuch");
        mapsBack(client, rewritten, "FROM t");
        // the rewritten constant itself points where it starts in the client's text
        assertEquals(8, TextShifts.between(client, rewritten).toClient(8));
    }

    @Test
    void aLongerReplacementMapsBackToo() {
        String client = "SELECT INTERVAL '1 day 2 hours 3 minutes' + ts AS x, nosuch FROM t";
        String rewritten = PgSyntaxText.rewrite(client);
        mapsBack(client, rewritten, "ts AS");
        mapsBack(client, rewritten, "nosuch");
    }

    @Test
    void tooManyEditsGiveNoPositionPastTheFirst() {
        String client = "a".repeat(2000) + " x";
        String rewritten = "b".repeat(2000) + " x";
        assertEquals(0, TextShifts.between(client, rewritten).toClient(2002));
    }
}

package io.tributary.server.pgwire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** A statement's kind is its command tag without the counts PostgreSQL appends. */
class StatementObserverTest {
    @Test
    void kindDropsCounts() {
        assertEquals("INSERT", StatementObserver.kindOf("INSERT 0 5"));
        assertEquals("SELECT", StatementObserver.kindOf("SELECT 3"));
        assertEquals("COPY", StatementObserver.kindOf("COPY 100"));
        assertEquals("CREATE TABLE", StatementObserver.kindOf("CREATE TABLE"));
        assertEquals("SET", StatementObserver.kindOf("SET"));
    }
}

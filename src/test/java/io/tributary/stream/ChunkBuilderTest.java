package io.tributary.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@link Chunk.Builder}: order, ops and sizes across its array growth, and a clean start after each build. */
class ChunkBuilderTest {
    @Test
    void keepsEveryChangeInOrderAcrossGrowth() {
        Chunk.Builder builder = new Chunk.Builder();
        for (int n : new int[] {1, 63, 64, 65, 256, 257, Chunk.TARGET_SIZE - 1, Chunk.TARGET_SIZE, 3000}) {
            Object[][] rows = new Object[n][];
            for (int i = 0; i < n; i++) {
                rows[i] = new Object[] {i};
                builder.add(i % 3 == 0 ? Op.DELETE : Op.INSERT, rows[i]);
                assertEquals(i + 1, builder.size());
                assertEquals(i + 1 >= Chunk.TARGET_SIZE, builder.isFull());
            }
            Chunk chunk = builder.build();
            assertEquals(n, chunk.size(), "rows of a chunk built from " + n);
            for (int i = 0; i < n; i++) {
                assertSame(rows[i], chunk.row(i));
                assertEquals(i % 3 == 0 ? Op.DELETE : Op.INSERT, chunk.op(i));
            }
            assertEquals(0, builder.size());
            assertFalse(builder.isFull());
        }
    }

    @Test
    void buildsNothingWhenEmptyAndNeverSharesArraysBetweenChunks() {
        Chunk.Builder builder = new Chunk.Builder();
        assertNull(builder.build());
        Object[] first = {1};
        builder.add(Op.INSERT, first);
        Chunk one = builder.build();
        assertNull(builder.build());
        builder.add(Op.DELETE, new Object[] {2});
        Chunk two = builder.build();
        assertSame(first, one.row(0));
        assertEquals(Op.INSERT, one.op(0));
        assertEquals(Op.DELETE, two.op(0));
        assertTrue(one.size() == 1 && two.size() == 1);
    }
}

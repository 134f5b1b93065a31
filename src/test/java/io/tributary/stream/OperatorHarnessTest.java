package io.tributary.stream;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link OperatorHarness#verify} fails an operator that only some schedules reveal as wrong. */
class OperatorHarnessTest {
    @TempDir
    Path dir;

    /** COUNT(*) kept in memory only: right until it is rebuilt, when it forgets what it emitted. */
    private static final class MemoryOnlyCount implements Operator {
        private long count;
        private Long emitted;

        @Override
        public void onChunk(int input, Chunk chunk, Output out) {
            for (int i = 0; i < chunk.size(); i++) {
                count += chunk.op(i).sign();
            }
        }

        @Override
        public void onBarrier(Barrier barrier, Output out, StateWrites writes) {
            if (emitted != null) {
                out.emit(Op.DELETE, new Object[] {emitted});
            }
            out.emit(Op.INSERT, new Object[] {count});
            emitted = count;
        }
    }

    /** Passes through only the rows of the first chunk after each barrier: barrier placement shows. */
    private static final class FirstChunkPerEpoch implements Operator {
        private boolean seen;

        @Override
        public void onChunk(int input, Chunk chunk, Output out) {
            if (!seen) {
                for (int i = 0; i < chunk.size(); i++) {
                    out.emit(chunk.op(i), chunk.row(i));
                }
            }
            seen = true;
        }

        @Override
        public void onBarrier(Barrier barrier, Output out, StateWrites writes) {
            seen = false;
        }
    }

    @Test
    void anOperatorThatForgetsItsStateFailsOnlyWhenRestored() {
        AssertionError e = assertThrows(
                AssertionError.class,
                () -> OperatorHarness.verify(dir, view -> new MemoryOnlyCount())
                        .insert(0, new Object[] {1})
                        .insert(0, new Object[] {2})
                        .expectRows(List.of("[2]")));
        assertTrue(e.getMessage().contains("RESTORE_AFTER_EACH_CHUNK"), e.getMessage());
    }

    @Test
    void anOperatorWhoseOutputDependsOnBarriersFails() {
        AssertionError e = assertThrows(
                AssertionError.class,
                () -> OperatorHarness.verify(dir, view -> new FirstChunkPerEpoch())
                        .insert(0, new Object[] {1})
                        .insert(0, new Object[] {2})
                        .expectRows(List.of("[1]")));
        assertTrue(e.getMessage().contains("BARRIER_AFTER_EACH_CHUNK"), e.getMessage());
    }
}

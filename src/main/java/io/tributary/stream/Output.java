package io.tributary.stream;

/**
 * Where an operator sends its changes. Implementations buffer rows into chunks and hand them on
 * when the operator's current call returns, so operators emit row by row. Called only on the
 * operator's actor thread.
 */
public interface Output {
    void emit(Op op, Object[] row);

    /**
     * Emits every change of {@code chunk}, in order, as {@link #emit} of each would: for an
     * operator that passes a chunk on unchanged, so that a chunk of stored rows
     * ({@link Chunk#ofStored}) goes on without its rows being decoded.
     */
    default void forward(Chunk chunk) {
        for (int i = 0; i < chunk.size(); i++) {
            emit(chunk.op(i), chunk.row(i));
        }
    }
}

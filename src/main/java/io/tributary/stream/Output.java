package io.tributary.stream;

/**
 * Where an operator sends its changes. Implementations buffer rows into chunks and hand them on
 * when the operator's current call returns, so operators emit row by row. Called only on the
 * operator's actor thread.
 */
public interface Output {
    void emit(Op op, Object[] row);
}

package io.tributary.server.session;

/**
 * Receives the data of {@code COPY ... FROM STDIN}. The protocol layer calls {@link #write} for each
 * CopyData message, then exactly one of {@link #finish} (CopyDone) or {@link #abort} (CopyFail or
 * connection loss). Nothing is applied before {@link #finish} succeeds.
 */
public interface CopyInSink {
    /** Number of columns each row carries (for CopyInResponse). */
    int columnCount();

    /** A chunk of the input stream; lines may be split across chunks. */
    void write(byte[] data);

    /** Ends the input and applies it; returns the CommandComplete tag ("COPY n"). */
    String finish();

    /** Discards everything received. */
    void abort(String reason);
}

package io.tributary.cli;

import java.io.Reader;

/**
 * COPY text-format input of the rows {@code first..last}, each written by a {@link RowFormat} from
 * its number as it is read, so that no input of millions of rows is held in memory.
 */
final class GeneratedRowsReader extends Reader {
    private static final int ROWS_PER_CHUNK = 1024;

    /** Writes one row of COPY text: its tab-separated fields and the closing newline. */
    @FunctionalInterface
    interface RowFormat {
        void append(StringBuilder out, long row);
    }

    private final long last;
    private final RowFormat format;
    private final StringBuilder chunk = new StringBuilder();
    private long nextRow;
    private int chunkPos;

    /** The rows {@code first..last}; none if {@code last < first}. */
    GeneratedRowsReader(long first, long last, RowFormat format) {
        this.nextRow = first;
        this.last = last;
        this.format = format;
    }

    @Override
    public int read(char[] buf, int off, int len) {
        if (chunkPos == chunk.length() && !refill()) {
            return -1;
        }
        int n = Math.min(len, chunk.length() - chunkPos);
        chunk.getChars(chunkPos, chunkPos + n, buf, off);
        chunkPos += n;
        return n;
    }

    private boolean refill() {
        chunk.setLength(0);
        chunkPos = 0;
        for (int i = 0; i < ROWS_PER_CHUNK && nextRow <= last; i++, nextRow++) {
            format.append(chunk, nextRow);
        }
        return chunk.length() > 0;
    }

    @Override
    public void close() {
        nextRow = last + 1;
        chunk.setLength(0);
        chunkPos = 0;
    }
}

package io.tributary.cli;

import java.io.Reader;

/**
 * COPY text-format input for {@code (id BIGINT, v INT, w DOUBLE PRECISION)}: rows {@code 1..rows}
 * with the values {@code INSERT ... SELECT x, x % 1000, x * 0.5} would produce, generated as they
 * are read so that no input of millions of rows is held in memory.
 */
final class GeneratedRowsReader extends Reader {
    private static final int ROWS_PER_CHUNK = 1024;

    private final long rows;
    private final StringBuilder chunk = new StringBuilder();
    private long nextRow = 1;
    private int chunkPos;

    GeneratedRowsReader(long rows) {
        this.rows = rows;
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
        for (int i = 0; i < ROWS_PER_CHUNK && nextRow <= rows; i++, nextRow++) {
            chunk.append(nextRow).append('\t').append(nextRow % 1000).append('\t').append(nextRow * 0.5).append('\n');
        }
        return chunk.length() > 0;
    }

    @Override
    public void close() {
        nextRow = rows + 1;
        chunk.setLength(0);
        chunkPos = 0;
    }
}

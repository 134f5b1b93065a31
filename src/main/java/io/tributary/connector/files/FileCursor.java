package io.tributary.connector.files;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An unfinished file and how far it was read: the offset and line of its next record and, for CSV
 * with a header, the header's layout. Owned by one {@link FilesSplitReader}; not thread-safe.
 */
final class FileCursor {
    final String name;
    long offset;
    long line;
    int[] layout;
    private FileChannel channel;

    FileCursor(String name, long offset, long line) {
        this.name = name;
        this.offset = offset;
        this.line = line;
    }

    /** The open file, opened on first use and kept until {@link #close()} (the file may grow). */
    FileChannel channel(Path directory) throws IOException {
        if (channel == null) {
            channel = FileChannel.open(directory.resolve(name), StandardOpenOption.READ);
        }
        return channel;
    }

    void close() {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                // a read-only channel has nothing to flush; failing to close loses nothing
            }
            channel = null;
        }
    }
}

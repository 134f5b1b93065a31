package io.tributary.connector.files;

import io.tributary.common.SqlState;
import io.tributary.connector.ConnectorException;
import io.tributary.connector.Source;
import io.tributary.connector.SplitReader;
import java.util.List;

/**
 * A {@code files} table's source. It has a single split, {@value #SPLIT}: one reader keeps the
 * name order across all files, which is what keeps its position small (see {@link FilesPosition}).
 * Nothing is created outside Tributary, so the identity is empty. Thread-safe (immutable).
 */
final class FilesSource implements Source {
    static final String SPLIT = "files";

    private final FilesOptions options;

    FilesSource(FilesOptions options) {
        this.options = options;
    }

    @Override
    public List<String> splits() {
        return List.of(SPLIT);
    }

    @Override
    public SplitReader reader(String split, byte[] position) {
        if (!SPLIT.equals(split)) {
            throw new ConnectorException(SqlState.INTERNAL_ERROR, "files source has no split " + split);
        }
        return new FilesSplitReader(options, position == null ? FilesPosition.START : FilesPosition.decode(position));
    }
}

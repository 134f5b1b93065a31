package io.tributary.connector.files;

import io.tributary.connector.Source;
import io.tributary.connector.SourceConnector;
import io.tributary.connector.SourceContext;
import java.util.List;

/**
 * {@code connector = 'files'}: the CSV or JSON Lines files of a local directory whose names match
 * a glob, read in name order, new files and appended lines included. Stateless and thread-safe.
 */
public final class FilesConnector implements SourceConnector {
    public FilesConnector() {}

    @Override
    public String name() {
        return "files";
    }

    @Override
    public List<String> options() {
        return FilesOptions.NAMES;
    }

    @Override
    public Source open(SourceContext context) {
        return new FilesSource(FilesOptions.parse(context));
    }
}

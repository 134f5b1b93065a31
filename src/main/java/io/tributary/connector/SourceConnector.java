package io.tributary.connector;

import java.util.List;

/**
 * A kind of source, named by a table's {@code connector = '...'} option: it checks the table's
 * options and opens its {@link Source}. Implementations are stateless and thread-safe; they are
 * listed in {@link Connectors}.
 */
public interface SourceConnector {
    /** The value of the {@code connector} option that selects this connector, e.g. {@code datagen}. */
    String name();

    /**
     * Every option this connector accepts (exact names; a trailing {@code *} stands for a family such
     * as {@code fields.*}), shown to the user when an option is unknown or missing.
     */
    List<String> options();

    /**
     * Checks {@code context}'s options, columns and format and opens the source. Called at CREATE
     * TABLE (where a failure aborts the statement before anything is stored) and again at every
     * start of the server with the identity the first open returned.
     *
     * @throws ConnectorException 22023 for a bad option value, 42601 for an unknown or missing
     *     option, with a message naming the valid options; 08000-class states when an external
     *     system cannot be reached
     */
    Source open(SourceContext context);
}

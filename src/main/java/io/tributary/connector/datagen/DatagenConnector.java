package io.tributary.connector.datagen;

import io.tributary.connector.Source;
import io.tributary.connector.SourceConnector;
import io.tributary.connector.SourceContext;
import java.util.List;

/**
 * {@code connector = 'datagen'}: rows made up from the table's columns, each column a sequence or
 * seeded random values (see {@link SequenceField}, {@link RandomField}). Options:
 * {@code fields.<col>.kind} ({@code sequence} or {@code random}, the default),
 * {@code fields.<col>.start}, {@code fields.<col>.end}, {@code fields.<col>.seed},
 * {@code fields.<col>.length} (text), {@code datagen.rows.per.second} (over all splits, default
 * 10), {@code datagen.split.num} (default 1) and {@code datagen.rows.total} (rows to make, default
 * unbounded; a sequence's end bounds them too). Stateless and thread-safe.
 */
public final class DatagenConnector implements SourceConnector {
    @Override
    public String name() {
        return "datagen";
    }

    @Override
    public List<String> options() {
        return List.of(
                DatagenSpec.FIELDS + "*", DatagenSpec.ROWS_PER_SECOND, DatagenSpec.SPLIT_NUM, DatagenSpec.ROWS_TOTAL);
    }

    @Override
    public Source open(SourceContext context) {
        return new DatagenSource(DatagenSpec.parse(context));
    }
}

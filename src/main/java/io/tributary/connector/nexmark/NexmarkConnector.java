package io.tributary.connector.nexmark;

import io.tributary.connector.Source;
import io.tributary.connector.SourceConnector;
import io.tributary.connector.SourceContext;
import java.util.List;

/**
 * {@code connector = 'nexmark'}: the person, auction or bid table of the Nexmark benchmark,
 * generated deterministically from event numbers. Stateless and thread-safe.
 */
public final class NexmarkConnector implements SourceConnector {
    public NexmarkConnector() {}

    @Override
    public String name() {
        return "nexmark";
    }

    @Override
    public List<String> options() {
        return NexmarkOptions.NAMES;
    }

    @Override
    public Source open(SourceContext context) {
        return new NexmarkSource(NexmarkOptions.parse(context), context.identity());
    }
}

package io.tributary.meta.ddl;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.SequenceDef;
import io.tributary.catalog.TableDef;
import io.tributary.catalog.ViewDef;
import io.tributary.meta.sink.SinkManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * What reads a table and would break if its name, its columns or its row layout changed under it:
 * plain views (which name it in their stored query), materialized views and sinks (whose jobs
 * decode its rows and whose stored queries name it), and sequences {@code OWNED BY} one of its
 * columns. Used by the column and rename DDL to refuse what they cannot carry along. Stateless.
 */
final class TableReaders {
    private TableReaders() {}

    /** A reader, as PostgreSQL's messages name it ({@code view v}, {@code materialized view m}). */
    record Reader(String description, String query) {}

    /** Every view, materialized view and sink reading {@code table}, in catalog order. */
    static List<Reader> of(Catalog catalog, SinkManager sinks, TableDef table) {
        List<Reader> out = new ArrayList<>();
        for (ViewDef v : catalog.views()) {
            if (v.reads().contains(table.name())) {
                out.add(new Reader("view " + v.localName(), v.query()));
            }
        }
        for (TableDef t : catalog.tables()) {
            if (t.dependsOn(table.id())) {
                out.add(new Reader(
                        t.isInternal()
                                ? "sink " + t.name().substring(TableDef.SINK_QUERY_PREFIX.length())
                                : "materialized view " + t.localName(),
                        t.query()));
            }
        }
        sinks.sinksOn(table.id()).forEach(s -> out.add(new Reader("sink " + s.name(), null)));
        return out;
    }

    /**
     * Whether {@code query} may read column {@code column}: it names it (as a word, in any case, so
     * quoted and unquoted spellings both count) or uses {@code *}, {@code NATURAL} or {@code USING},
     * which read columns without naming them. Errs towards yes, never towards no: a query cannot
     * reach a column any other way. A null query (a sink reading the table itself) reads all.
     */
    static boolean mayRead(String query, String column) {
        if (query == null) {
            return true;
        }
        String lower = query.toLowerCase(Locale.ROOT);
        Pattern word = Pattern.compile(
                "(?<![\\p{L}\\p{N}_$])" + Pattern.quote(column.toLowerCase(Locale.ROOT)) + "(?![\\p{L}\\p{N}_$])");
        return lower.contains("*")
                || word.matcher(lower).find()
                || Pattern.compile("\\b(natural|using)\\b").matcher(lower).find();
    }

    /** The sequences {@code OWNED BY} a column of {@code table} ({@code <table key>.<column>}). */
    static List<SequenceDef> ownedSequences(Catalog catalog, TableDef table) {
        return catalog.sequences().stream()
                .filter(s -> s.ownedBy() != null && s.ownedBy().startsWith(table.name() + "."))
                .toList();
    }
}

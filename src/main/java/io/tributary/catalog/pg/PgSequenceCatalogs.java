package io.tributary.catalog.pg;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.SequenceDef;
import io.tributary.catalog.SequenceOptions;
import java.util.ArrayList;
import java.util.List;

/**
 * The sequences of SERIAL and identity columns as {@code pg_catalog} shows them: as relations of
 * their table's schema, and as the rows of {@code pg_sequence} and {@code pg_sequences}; those made
 * by {@code CREATE SEQUENCE} as rows of {@code pg_sequences}. Owned by
 * one {@link PgCatalog}, so one per session; read at every scan.
 */
final class PgSequenceCatalogs {
    private final PgRelations relations;
    private final PgSession session;

    PgSequenceCatalogs(PgRelations relations, PgSession session) {
        this.relations = relations;
        this.session = session;
    }

    /**
     * The sequences behind SERIAL and identity columns as relations of their table's schema, so
     * that {@code SELECT last_value, is_called FROM t_id_seq} reads them as in PostgreSQL: one row
     * with the last value handed out ({@code is_called}), or the value handed out next (the start
     * value 1 before the first, or what {@code setval(s, n, false)} set).
     */
    List<PgTable> relations(String schema) {
        List<PgTable> out = new ArrayList<>();
        for (PgSequence q : relations.sequencesIn(schema)) {
            out.add(new PgTable(schema, q.name(), q.oid(), "S", SEQUENCE_COLUMNS, () -> {
                long last = session.sequenceValue(q.tableId(), q.column());
                return List.<Object[]>of(new Object[] {last == 0 ? 1L : Math.abs(last), 0L, last > 0});
            }));
        }
        return out;
    }

    private static final List<PgColumn> SEQUENCE_COLUMNS =
            PgColumn.parse("last_value int8, log_cnt int8, is_called bool");

    /** Every sequence starts at 1 and counts up by 1, as Tributary's do, up to its type's bound. */
    List<Object[]> sequenceRows() {
        List<Object[]> rows = new ArrayList<>();
        for (PgSequence q : relations.sequences()) {
            rows.add(new Object[] {q.oid(), q.typeOid(), 1L, 1L, q.maxValue(), 1L, 1L, false});
        }
        return rows;
    }

    /**
     * {@code pg_sequences}: the sequences of SERIAL and identity columns, then those made by {@code
     * CREATE SEQUENCE} with their options; last_value is null until the sequence has handed out a
     * value (or after setval(s, n, false) or RESTART).
     */
    List<Object[]> sequenceViewRows() {
        List<Object[]> rows = new ArrayList<>();
        for (PgSequence q : relations.sequences()) {
            long last = session.sequenceValue(q.tableId(), q.column());
            rows.add(new Object[] {
                Catalog.SCHEMA,
                q.name(),
                session.user(),
                PgTypes.formatType(q.typeOid(), -1),
                1L,
                1L,
                q.maxValue(),
                1L,
                false,
                1L,
                last <= 0 ? null : last
            });
        }
        for (SequenceDef q : relations.createdSequences()) {
            SequenceOptions o = q.counting();
            rows.add(new Object[] {
                q.schema(),
                q.localName(),
                session.user(),
                q.type(),
                o.start(),
                o.min(),
                o.max(),
                o.increment(),
                o.cycle(),
                o.cache(),
                session.createdSequenceLastValue(q.id(), o.start())
            });
        }
        return rows;
    }
}

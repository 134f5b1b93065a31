package io.tributary.catalog.pg;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.SequenceDef;
import io.tributary.catalog.SequenceOptions;
import java.util.ArrayList;
import java.util.List;

/**
 * The sequences as {@code pg_catalog} shows them: those of SERIAL and identity columns as relations
 * of their table's schema, those made by {@code CREATE SEQUENCE} as relations of their own schema,
 * and both as the rows of {@code pg_sequence} and {@code pg_sequences}. Owned by
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
        for (PgSequence q : relations.createdSequencesIn(schema)) {
            out.add(new PgTable(schema, q.name(), q.oid(), "S", SEQUENCE_COLUMNS, () -> {
                PgSequencePosition p = session.createdSequencePosition(
                        q.tableId(), q.counting().start());
                return List.<Object[]>of(new Object[] {p.value(), 0L, p.called()});
            }));
        }
        return out;
    }

    private static final List<PgColumn> SEQUENCE_COLUMNS =
            PgColumn.parse("last_value int8, log_cnt int8, is_called bool");

    /**
     * {@code pg_sequence}: a column's sequence starts at 1 and counts up by 1 to its type's bound;
     * one made by {@code CREATE SEQUENCE} counts as its options say.
     */
    List<Object[]> sequenceRows() {
        List<Object[]> rows = new ArrayList<>();
        for (PgSequence q : relations.sequences()) {
            rows.add(new Object[] {q.oid(), q.typeOid(), 1L, 1L, q.maxValue(), 1L, 1L, false});
        }
        for (SequenceDef d : relations.createdSequences()) {
            PgSequence q = relations.created(d);
            SequenceOptions o = q.counting();
            rows.add(
                    new Object[] {q.oid(), q.typeOid(), o.start(), o.increment(), o.max(), o.min(), o.cache(), o.cycle()
                    });
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
        java.util.Map<Long, String> schemaOf = relations.schemasOfTables();
        for (PgSequence q : relations.sequences()) {
            long last = session.sequenceValue(q.tableId(), q.column());
            rows.add(new Object[] {
                schemaOf.getOrDefault(q.table(), Catalog.SCHEMA),
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
                lastValue(session.createdSequencePosition(q.id(), o.start()))
            });
        }
        return rows;
    }

    /** {@code pg_sequences.last_value}: null until the sequence has handed out its next value. */
    private static Long lastValue(PgSequencePosition p) {
        return p.called() ? p.value() : null;
    }
}

package io.tributary.server.session;

import io.tributary.catalog.SequenceDef;
import io.tributary.catalog.SequenceOptions;
import io.tributary.catalog.pg.PgCatalog;
import io.tributary.catalog.pg.PgSequence;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.meta.Database;
import io.tributary.sql.SequenceCallText;
import io.tributary.sql.UtilityStatement;
import java.util.Optional;

/**
 * {@code nextval}, {@code currval} and {@code setval} on sequences (of SERIAL and identity columns,
 * and made by {@code CREATE SEQUENCE} with their options), and {@code ALTER SEQUENCE}'s options
 * and RESTART, for one session, as PostgreSQL answers them. A value nextval hands out, and a position
 * setval sets, is durable before the statement returns (its epoch is committed), so after a
 * {@code kill -9} no value handed out is handed out again. currval answers from the session's
 * {@link SessionCurrvals}. Session thread only.
 */
final class SequenceCalls {
    private final Database db;
    private final SessionCurrvals currvals;

    SequenceCalls(Database db, SessionCurrvals currvals) {
        this.db = db;
        this.currvals = currvals;
    }

    /**
     * The function's value.
     *
     * @throws TributaryException 42P01 for a missing sequence, 55000 for currval before nextval
     *     in this session, 2200H for nextval past a bound without CYCLE, 22003 for a setval value
     *     out of the sequence's bounds
     */
    private long call(SequenceCallText.Call call) throws InterruptedException {
        PgSequence sequence = resolve(call.sequence());
        return switch (call.function()) {
            case "nextval" -> nextval(sequence);
            case "currval" -> {
                Long last = currvals.last(sequence.tableId(), sequence.column());
                if (last == null) {
                    throw new TributaryException(
                            SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE,
                            "currval of sequence \"" + sequence.name() + "\" is not yet defined in this session");
                }
                yield last;
            }
            default -> setval(sequence, call.value(), call.isCalled());
        };
    }

    /**
     * The values of the calls of a statement evaluated ahead of it ({@link
     * io.tributary.sql.SequenceCallText}), in order, each durable as {@link #call} makes it.
     *
     * @param insertTableId the catalog id of the table an INSERT writes, or -1: a call on one of
     *     that table's own sequences is 0A000, since PostgreSQL interleaves it with the table's
     *     SERIAL/identity defaults row by row, which evaluating ahead cannot reproduce
     */
    java.util.List<Long> values(java.util.List<SequenceCallText.Call> calls, int insertTableId)
            throws InterruptedException {
        for (SequenceCallText.Call c : calls) {
            if (resolve(c.sequence()).tableId() == insertTableId) {
                throw TributaryException.notSupported(
                        c.function() + " on a sequence of the table the INSERT writes, inside its VALUES");
            }
        }
        java.util.List<Long> values = new java.util.ArrayList<>(calls.size());
        for (SequenceCallText.Call c : calls) {
            values.add(call(c));
        }
        return values;
    }

    private long nextval(PgSequence sequence) throws InterruptedException {
        long value = db.sequences().next(sequence.tableId(), sequence.column(), sequence.counting(), sequence.name());
        persist(sequence);
        currvals.record(sequence.tableId(), sequence.column(), value);
        return value;
    }

    private long setval(PgSequence sequence, long value, boolean isCalled) throws InterruptedException {
        SequenceOptions counting = sequence.counting();
        if (value < counting.min() || value > counting.max()) {
            throw new TributaryException(
                    SqlState.NUMERIC_VALUE_OUT_OF_RANGE,
                    "setval: value " + value + " is out of bounds for sequence \"" + sequence.name() + "\" ("
                            + counting.min() + ".." + counting.max() + ")");
        }
        db.sequences().set(sequence.tableId(), sequence.column(), value, isCalled);
        persist(sequence);
        if (isCalled) {
            currvals.record(sequence.tableId(), sequence.column(), value);
        }
        return value;
    }

    /**
     * {@code ALTER SEQUENCE} with options or RESTART: the new options commit first, then the
     * restarted position is made durable before it returns.
     *
     * @throws TributaryException 42P01 for no such sequence, 0A000 for a SERIAL or identity
     *     column's sequence, 22023 for options or a RESTART value PostgreSQL refuses
     */
    void alter(UtilityStatement.AlterSequence alter) throws InterruptedException {
        Optional<SequenceDef> found = db.catalog().sequence(alter.sequence());
        if (found.isEmpty()) {
            String key = alter.sequence();
            int dot = key.indexOf('.');
            if (PgCatalog.sequence(db.catalog(), dot < 0 ? null : key.substring(0, dot), key.substring(dot + 1))
                    != null) {
                throw TributaryException.notSupported("ALTER SEQUENCE on the sequence of a SERIAL or identity column");
            }
            throw new TributaryException(SqlState.UNDEFINED_TABLE, "relation \"" + key + "\" does not exist");
        }
        SequenceDef before = found.get();
        SequenceOptions after = alter.options().over(before.type(), before.counting());
        long restartAt = alter.restart() ? after.restart(alter.restartWith()) : 0;
        if (!after.equals(before.counting())) {
            db.sequenceDdl().alter(before.name(), after);
        }
        if (alter.restart()) {
            db.sequences().set(before.id(), 0, restartAt, false);
            db.barriers().awaitCommitted(db.barriers().stage(db.sequences().persist(before.id(), 0)));
        }
    }

    private void persist(PgSequence sequence) throws InterruptedException {
        db.barriers()
                .awaitCommitted(db.barriers().stage(db.sequences().persist(sequence.tableId(), sequence.column())));
    }

    /** {@code name} as a regclass string names it: {@code [schema.]name}, unquoted parts folded. */
    private PgSequence resolve(String text) {
        int dot = text.indexOf('.');
        String schema = dot < 0 ? null : identifier(text.substring(0, dot));
        String name = identifier(text.substring(dot + 1));
        PgSequence sequence = PgCatalog.sequence(db.catalog(), schema, name);
        if (sequence == null) {
            throw new TributaryException(SqlState.UNDEFINED_TABLE, "relation \"" + text + "\" does not exist");
        }
        return sequence;
    }

    private static String identifier(String part) {
        String p = part.strip();
        return p.length() >= 2 && p.startsWith("\"") && p.endsWith("\"")
                ? p.substring(1, p.length() - 1).replace("\"\"", "\"")
                : p.toLowerCase(java.util.Locale.ROOT);
    }
}

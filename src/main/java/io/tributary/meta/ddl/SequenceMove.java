package io.tributary.meta.ddl;

import io.tributary.meta.epoch.EpochChange;

/**
 * Moves a SERIAL/identity sequence's position from one (table, column) to another, as a change of
 * the epoch that commits the DDL; the database's sequence store implements it ({@code
 * meta.write.Sequences#moved}), which meta.ddl may not reach itself.
 */
@FunctionalInterface
public interface SequenceMove {
    /** The change that gives {@code (toTable, toColumn)} the position {@code (fromTable, fromColumn)} has when staged. */
    EpochChange moved(int fromTable, int fromColumn, int toTable, int toColumn);
}

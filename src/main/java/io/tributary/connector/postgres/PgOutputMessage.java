package io.tributary.connector.postgres;

import java.util.List;

/**
 * A decoded message of PostgreSQL's {@code pgoutput} logical replication protocol (version 1).
 * Timestamps are microseconds since 2000-01-01 UTC, as PostgreSQL sends them.
 */
sealed interface PgOutputMessage {
    /** @param finalLsn the LSN of the transaction's commit record */
    record Begin(long finalLsn, long commitTime, int xid) implements PgOutputMessage {}

    /** @param endLsn the LSN right after the transaction's commit record */
    record Commit(long commitLsn, long endLsn, long commitTime) implements PgOutputMessage {}

    /** A table's description, sent before its first change in a session and after every change of it. */
    record Relation(int id, String namespace, String name, List<RelationColumn> columns) implements PgOutputMessage {}

    /** @param key whether the column is part of the replica identity */
    record RelationColumn(String name, int typeOid, boolean key) {}

    record Insert(int relation, TupleData row) implements PgOutputMessage {}

    /**
     * @param old the old key ({@code oldIsKey}, sent when the key changed) or the whole old row
     *     (REPLICA IDENTITY FULL), or null
     */
    record Update(int relation, TupleData old, boolean oldIsKey, TupleData row) implements PgOutputMessage {}

    /** @param old the old key ({@code oldIsKey}) or the whole old row (REPLICA IDENTITY FULL) */
    record Delete(int relation, TupleData old, boolean oldIsKey) implements PgOutputMessage {}

    record Truncate(int[] relations) implements PgOutputMessage {}

    /** Origin, Type and generic messages: nothing a table's changes depend on. */
    record Ignored(char tag) implements PgOutputMessage {}

    /**
     * A row's columns in the relation's order: each is null, unchanged (a TOASTed value the update
     * did not touch, not sent) or text.
     */
    record TupleData(byte[] kinds, String[] texts) {
        static final byte NULL = 'n';
        static final byte UNCHANGED = 'u';
        static final byte TEXT = 't';
    }
}

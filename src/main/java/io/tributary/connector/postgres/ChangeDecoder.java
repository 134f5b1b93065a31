package io.tributary.connector.postgres;

import io.tributary.common.SqlState;
import io.tributary.connector.ConnectorException;
import io.tributary.connector.SourceChange;
import io.tributary.connector.SourceColumn;
import io.tributary.connector.postgres.PgOutputMessage.TupleData;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns pgoutput row messages into {@link SourceChange}s of the declared table: maps upstream
 * columns to declared ones by name (as the latest Relation message describes them) and parses
 * their text into the declared types. Used by one reader thread.
 */
final class ChangeDecoder {
    private final CdcOptions options;
    private final List<SourceColumn> columns;
    private final int[] primaryKey;
    private final ColumnParser parser;
    /** Per relation id: for each upstream column, the declared column it feeds, or -1. */
    private final Map<Integer, int[]> relations = new HashMap<>();

    ChangeDecoder(CdcOptions options, List<SourceColumn> columns, int[] primaryKey) {
        this.options = options;
        this.columns = columns;
        this.primaryKey = primaryKey;
        this.parser = new ColumnParser(columns, options.quotedTable());
    }

    /**
     * Learns a relation's columns; a relation other than the captured table (someone added it to
     * the publication) is remembered as feeding nothing.
     *
     * @throws ConnectorException when a declared column disappeared upstream or changed to a type
     *     that does not fit
     */
    void relation(PgOutputMessage.Relation r) {
        int[] map = new int[r.columns().size()];
        Arrays.fill(map, -1);
        if (r.namespace().equals(options.schema()) && r.name().equals(options.table())) {
            for (int j = 0; j < columns.size(); j++) {
                SourceColumn declared = columns.get(j);
                int i = indexOf(r.columns(), declared.name());
                if (i < 0) {
                    throw new ConnectorException(
                            SqlState.UNDEFINED_COLUMN,
                            "postgres-cdc: column \"" + declared.name() + "\" no longer exists in upstream table "
                                    + options.quotedTable());
                }
                if (!TypeFit.fits(declared.type(), r.columns().get(i).typeOid())) {
                    throw new ConnectorException(
                            SqlState.DATATYPE_MISMATCH,
                            "postgres-cdc: column \""
                                    + declared.name() + "\" of upstream table " + options.quotedTable()
                                    + " changed to a type that does not fit "
                                    + declared.type().sqlName());
                }
                map[i] = j;
            }
        }
        relations.put(r.id(), map);
    }

    /** Appends the changes {@code m} makes to the declared table (none for other relations). */
    void decode(PgOutputMessage m, List<SourceChange> out) {
        if (m instanceof PgOutputMessage.Insert i) {
            int[] map = map(i.relation());
            if (feeds(map)) {
                out.add(new SourceChange(SourceChange.Kind.INSERT, row(map, i.row(), null)));
            }
        } else if (m instanceof PgOutputMessage.Update u) {
            int[] map = map(u.relation());
            if (!feeds(map)) {
                return;
            }
            Object[] row = row(map, u.row(), u.oldIsKey() ? null : u.old());
            if (u.old() != null) {
                Object[] old = row(map, u.old(), null);
                if (!sameKey(old, row)) {
                    // the primary key changed: the row under the old key is gone
                    out.add(new SourceChange(SourceChange.Kind.DELETE, old));
                }
            }
            out.add(new SourceChange(SourceChange.Kind.UPDATE, row));
        } else if (m instanceof PgOutputMessage.Delete d) {
            int[] map = map(d.relation());
            if (feeds(map)) {
                out.add(new SourceChange(SourceChange.Kind.DELETE, row(map, d.old(), null)));
            }
        } else if (m instanceof PgOutputMessage.Truncate t) {
            for (int relation : t.relations()) {
                if (feeds(map(relation))) {
                    throw new ConnectorException(
                            SqlState.FEATURE_NOT_SUPPORTED,
                            "postgres-cdc: upstream table "
                                    + options.quotedTable() + " was truncated; TRUNCATE cannot be captured, so table "
                                    + "contents would diverge. Recreate the table to take a new snapshot");
                }
            }
        }
    }

    private int[] map(int relation) {
        int[] map = relations.get(relation);
        if (map == null) {
            throw new ConnectorException(
                    SqlState.INTERNAL_ERROR,
                    "postgres-cdc: a change of relation " + relation + " arrived before its description");
        }
        return map;
    }

    private static boolean feeds(int[] map) {
        for (int j : map) {
            if (j >= 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * The declared row {@code tuple} holds; a TOASTed value the change left alone is taken from
     * {@code fullOld} (REPLICA IDENTITY FULL sends it), else the change cannot be applied.
     */
    private Object[] row(int[] map, TupleData tuple, TupleData fullOld) {
        Object[] row = new Object[columns.size()];
        for (int i = 0; i < map.length && i < tuple.kinds().length; i++) {
            int j = map[i];
            if (j < 0) {
                continue;
            }
            String text = tuple.texts()[i];
            if (tuple.kinds()[i] == TupleData.UNCHANGED) {
                if (fullOld == null || fullOld.kinds()[i] == TupleData.UNCHANGED) {
                    throw new ConnectorException(
                            SqlState.FEATURE_NOT_SUPPORTED,
                            "postgres-cdc: an update of upstream table "
                                    + options.quotedTable() + " left the large (TOASTed) value of column \""
                                    + columns.get(j).name()
                                    + "\" unchanged, and pgoutput does not send such values; run ALTER TABLE "
                                    + options.quotedTable() + " REPLICA IDENTITY FULL upstream so that it does");
                }
                text = fullOld.texts()[i];
            }
            row[j] = parser.parse(j, text);
        }
        return row;
    }

    private boolean sameKey(Object[] a, Object[] b) {
        for (int k : primaryKey) {
            if (!Arrays.deepEquals(new Object[] {a[k]}, new Object[] {b[k]})) {
                return false;
            }
        }
        return true;
    }

    private static int indexOf(List<PgOutputMessage.RelationColumn> columns, String name) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }
}

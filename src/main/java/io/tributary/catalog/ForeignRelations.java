package io.tributary.catalog;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;

/**
 * The ids a database gives relations of other databases that its materialized views read
 * (docs/ARCHITECTURE.md, Cross-database views). A view's plan names each relation it reads by an id
 * of its own database; a table of database {@code a} gets the id {@code 0x40000000 | a << 20 |
 * relation}, which no relation or state table of the reading database can have (their ids count up
 * from 1 and stay far below), which is the same every time the query is planned (so a restart plans
 * the view to the fingerprint it was created with), and from which the database and relation are
 * read back without a lookup. Such an id never has rows in the reading database's store: it names
 * the input only.
 */
public final class ForeignRelations {
    private static final int MARK = 0x40000000;
    private static final int DATABASE_BITS = 10;
    private static final int RELATION_BITS = 20;

    private ForeignRelations() {}

    /**
     * The id database-local plans use for relation {@code relation} of database {@code database}.
     *
     * @throws TributaryException 0A000 when either number is too large for the encoding
     */
    public static int id(int database, int relation) {
        if (database < 0 || database >= 1 << DATABASE_BITS || relation >= 1 << RELATION_BITS) {
            throw new TributaryException(
                    SqlState.FEATURE_NOT_SUPPORTED,
                    "cross-database views are not implemented for relation " + relation + " of database number "
                            + database + ": ids past " + ((1 << RELATION_BITS) - 1) + " or database numbers past "
                            + ((1 << DATABASE_BITS) - 1));
        }
        return MARK | database << RELATION_BITS | relation;
    }

    /** Whether {@code id} names a relation of another database. */
    public static boolean isForeign(int id) {
        return (id & MARK) != 0 && id > 0;
    }

    /** The database number of a foreign id. */
    public static int database(int id) {
        return (id & ~MARK) >>> RELATION_BITS;
    }

    /** The relation's id in its own database. */
    public static int relation(int id) {
        return id & ((1 << RELATION_BITS) - 1);
    }
}

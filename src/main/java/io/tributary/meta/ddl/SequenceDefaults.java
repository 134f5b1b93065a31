package io.tributary.meta.ddl;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.SequenceDef;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Column defaults that draw from a sequence made by CREATE SEQUENCE ({@code DEFAULT
 * nextval('s')}): PostgreSQL resolves the sequence when the table is created (42P01 when it does
 * not exist) and records the default's dependency on it, so DROP SEQUENCE refuses it while the
 * default uses it (2BP01). Called by {@link DdlController} and {@link SequenceDdl} on the
 * statement's thread; stateless.
 */
final class SequenceDefaults {
    /** {@code nextval('name'[::regclass])}, the name's text in group 1. */
    private static final Pattern NEXTVAL =
            Pattern.compile("(?i)^\\s*nextval\\s*\\(\\s*'((?:[^']|'')*)'\\s*(?:::\\s*regclass\\s*)?\\)\\s*$");

    private SequenceDefaults() {}

    /**
     * The catalog key of the sequence a default draws from, or null when it is no plain {@code
     * nextval('name')}.
     */
    static String sequenceKey(String defaultExpr) {
        if (defaultExpr == null) {
            return null;
        }
        Matcher m = NEXTVAL.matcher(defaultExpr);
        if (!m.matches()) {
            return null;
        }
        List<String> parts = new ArrayList<>();
        for (String p : m.group(1).replace("''", "'").split("\\.")) {
            String part = p.strip();
            parts.add(
                    part.startsWith("\"") && part.endsWith("\"") && part.length() >= 2
                            ? part.substring(1, part.length() - 1)
                            : part.toLowerCase(Locale.ROOT));
        }
        return parts.size() == 1 ? parts.get(0) : Catalog.key(parts.get(parts.size() - 2), parts.get(parts.size() - 1));
    }

    /**
     * @throws TributaryException 42P01 when a column's {@code DEFAULT nextval('s')} names no sequence
     */
    static void checkExist(Catalog catalog, List<ColumnDef> columns) {
        for (ColumnDef c : columns) {
            String key = sequenceKey(c.defaultExpr());
            if (key != null && catalog.sequence(key).isEmpty()) {
                throw new TributaryException(
                        SqlState.UNDEFINED_TABLE, "relation \"" + localName(key) + "\" does not exist");
            }
        }
    }

    /**
     * @throws TributaryException 2BP01 when a column default of a table draws from {@code sequence},
     *     with PostgreSQL's DETAIL naming it
     */
    static void checkUnused(Catalog catalog, SequenceDef sequence) {
        for (TableDef t : catalog.tables()) {
            for (ColumnDef c : t.columns()) {
                if (sequence.name().equals(sequenceKey(c.defaultExpr()))) {
                    throw new TributaryException(
                            SqlState.DEPENDENT_OBJECTS_STILL_EXIST,
                            "cannot drop sequence " + sequence.localName() + " because other objects depend on it",
                            0,
                            "default value for column " + c.name() + " of table " + t.localName()
                                    + " depends on sequence " + sequence.localName(),
                            "Use DROP ... CASCADE to drop the dependent objects too.",
                            null);
                }
            }
        }
    }

    private static String localName(String key) {
        return key.substring(key.lastIndexOf('.') + 1);
    }
}

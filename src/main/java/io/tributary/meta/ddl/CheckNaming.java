package io.tributary.meta.ddl;

import io.tributary.catalog.CheckDef;
import io.tributary.catalog.TableDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.plan.CheckExpression;
import io.tributary.plan.ViewPlanner;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Plans the CHECK constraints a statement adds to a table (which refuses what PostgreSQL refuses)
 * and names the unnamed ones as PostgreSQL's {@code ChooseConstraintName} does: {@code
 * <table>_<column>_check} when the condition reads one column, else {@code <table>_check}, with
 * 1, 2, ... appended while the name is taken, each part shortened to fit 63 bytes. Called by
 * {@link DdlController} on the statement's thread; stateless apart from the planner.
 */
final class CheckNaming {
    /** PostgreSQL's NAMEDATALEN - 1: the longest name, in bytes. */
    private static final int MAX_NAME_BYTES = 63;

    private final ViewPlanner planner;

    CheckNaming(ViewPlanner planner) {
        this.planner = planner;
    }

    /**
     * @param table the table the checks belong to, with the checks it already has
     * @param added the new checks, named or not, in statement order
     * @return {@code table} with every check planned, named and deparsed
     * @throws TributaryException 42710 for a name the table's constraints already use; the
     *     planner's errors for a condition it refuses
     */
    TableDef withChecks(TableDef table, List<CheckDef> added) {
        if (added.isEmpty()) {
            return table;
        }
        Set<String> used = new HashSet<>();
        if (!table.hasRowId()) {
            used.add(table.localName() + "_pkey");
        }
        for (CheckDef c : table.checks()) {
            used.add(c.name());
        }
        List<CheckDef> all = new ArrayList<>(table.checks());
        for (CheckDef c : added) {
            CheckExpression planned = planner.planCheck(table, c.expression());
            String name = c.name();
            if (name == null) {
                String column = planned.columns().length == 1
                        ? table.columns().get(planned.columns()[0]).name()
                        : null;
                name = choose(table.localName(), column, used);
            } else if (used.contains(name)) {
                // PostgreSQL words a clash within the statement apart from one with a stored constraint
                boolean stored = table.checks().stream().anyMatch(k -> k.name().equals(c.name()))
                        || name.equals(table.localName() + "_pkey");
                throw new TributaryException(
                        SqlState.DUPLICATE_OBJECT,
                        stored
                                ? "constraint \"" + name + "\" for relation \"" + table.localName()
                                        + "\" already exists"
                                : "check constraint \"" + name + "\" already exists");
            }
            used.add(name);
            List<String> read = java.util.Arrays.stream(planned.columns())
                    .mapToObj(i -> table.columns().get(i).name())
                    .toList();
            all.add(c.named(name, planned.definition(), planned.prettyDefinition(), read));
        }
        return table.withChecks(all);
    }

    /** {@code <table>[_<column>]_check[N]}, the first not in {@code used}. */
    private static String choose(String table, String column, Set<String> used) {
        for (int pass = 0; ; pass++) {
            String label = pass == 0 ? "check" : "check" + pass;
            String name = objectName(table, column, label);
            if (!used.contains(name)) {
                return name;
            }
        }
    }

    /**
     * PostgreSQL's {@code makeObjectName}: {@code name1_name2_label}, shortening the longer of the
     * two names a character at a time until the whole fits.
     */
    private static String objectName(String name1, String name2, String label) {
        String a = name1;
        String b = name2 == null ? "" : name2;
        int overhead = label.length() + 1 + (name2 == null ? 0 : 1);
        while (bytes(a) + bytes(b) + overhead > MAX_NAME_BYTES) {
            if (bytes(a) > bytes(b)) {
                a = a.substring(0, a.length() - 1);
            } else {
                b = b.substring(0, b.length() - 1);
            }
        }
        return name2 == null ? a + "_" + label : a + "_" + b + "_" + label;
    }

    private static int bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }
}

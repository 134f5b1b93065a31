package io.tributary.sql.calcite;

import org.apache.calcite.runtime.Hook;
import org.apache.calcite.sql2rel.ConvertToChecked;
import org.apache.calcite.tools.Program;
import org.apache.calcite.tools.Programs;
import org.apache.calcite.util.Holder;

import java.util.function.Consumer;

/**
 * Makes integer arithmetic fail on overflow, as PostgreSQL's does ({@code 2147483647 + 1} is
 * 22003, not -2147483648): while a query is prepared on the calling thread, Calcite's planning
 * program first turns {@code + - * /} on exact types into their overflow-checking forms, then runs
 * the standard program.
 */
final class CheckedArithmetic {
    private static final Program PROGRAM = Programs.sequence(
            (planner, rel, traits, materializations, lattices) ->
                    rel.accept(new ConvertToChecked(rel.getCluster().getRexBuilder(), true)),
            Programs.standard());

    private CheckedArithmetic() {
    }

    /** Installs the checking program for preparations on this thread until the result is closed. */
    static Hook.Closeable onThisThread() {
        Consumer<Holder<Program>> install = holder -> holder.set(PROGRAM);
        return Hook.PROGRAM.addThread(install);
    }
}

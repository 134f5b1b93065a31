package io.tributary.sql.calcite;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The lines {@code EXPLAIN} shows for a query, read from the result of Calcite's {@code EXPLAIN
 * PLAN FOR}. Called by {@link CalciteFrontend#explain} on the session's thread.
 */
final class ExplainLines {
    private ExplainLines() {}

    /**
     * The non-blank lines of Calcite's plan text in {@code rs}, trailing spaces cut, without the
     * runaway guards.
     */
    static List<String> of(ResultSet rs) throws SQLException {
        List<String> lines = new ArrayList<>();
        while (rs.next()) {
            for (String line : rs.getString(1).split("\n")) {
                if (!line.isBlank()) {
                    lines.add(line.stripTrailing());
                }
            }
        }
        return withoutGuards(lines);
    }

    /**
     * The plan's lines without the runaway guards ({@link GuardedRel}) the planning program wraps
     * around operators: they are how Tributary enforces limits, not part of the query's plan. Their
     * inputs move up one level (Calcite indents each level by two spaces).
     */
    private static List<String> withoutGuards(List<String> lines) {
        List<String> out = new ArrayList<>(lines.size());
        ArrayDeque<Integer> guards = new ArrayDeque<>();
        for (String line : lines) {
            int depth = (line.length() - line.stripLeading().length()) / 2;
            while (!guards.isEmpty() && guards.peek() >= depth) {
                guards.pop();
            }
            if (line.stripLeading().startsWith(GuardedRel.class.getSimpleName() + "(")) {
                guards.push(depth);
            } else {
                out.add("  ".repeat(depth - guards.size()) + line.stripLeading());
            }
        }
        return out;
    }
}

package io.tributary.catalog;

/**
 * A table's CHECK constraint as the catalog stores it. Immutable.
 *
 * @param name the constraint's name, as given or as PostgreSQL would choose it ({@code
 *     <table>_<column>_check}, {@code <table>_check}, numbered on collision); null only between
 *     parsing and the DDL that names it
 * @param expression the condition as the user wrote it (the text inside {@code CHECK (...)}),
 *     planned again whenever a writer of the table needs it, so it always reads the columns by name
 * @param definition what {@code pg_get_constraintdef} returns, {@code CHECK ((v > 0))}
 * @param prettyDefinition what {@code pg_get_constraintdef(oid, true)} (psql's {@code \d}) returns,
 *     {@code CHECK (v > 0)}
 * @param columns the names of the columns the condition reads, in order of first appearance ({@code
 *     pg_constraint.conkey})
 */
public record CheckDef(
        String name, String expression, String definition, String prettyDefinition, java.util.List<String> columns) {
    public CheckDef {
        columns = columns == null ? java.util.List.of() : java.util.List.copyOf(columns);
    }

    /** The same constraint under {@code newName} with its two deparsed texts and the columns it reads. */
    public CheckDef named(
            String newName, String newDefinition, String newPrettyDefinition, java.util.List<String> readColumns) {
        return new CheckDef(newName, expression, newDefinition, newPrettyDefinition, readColumns);
    }
}

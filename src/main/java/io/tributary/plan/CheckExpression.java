package io.tributary.plan;

/**
 * A table's CHECK condition planned for evaluation per row, without the SQL planner. Immutable.
 *
 * @param condition a boolean expression over the table's full-width row (column {@code i} of the
 *     table is input {@code i}); false fails the constraint, true and NULL pass it
 * @param columns the table's column indexes the condition reads, distinct, in order of first
 *     appearance ({@code pg_constraint.conkey}; PostgreSQL names a constraint that reads one column
 *     after that column)
 * @param definition the condition as PostgreSQL's {@code pg_get_constraintdef} deparses it, inside
 *     {@code CHECK (...)}
 * @param prettyDefinition the same as {@code pg_get_constraintdef(oid, true)} deparses it
 */
public record CheckExpression(ScalarExpr condition, int[] columns, String definition, String prettyDefinition) {}

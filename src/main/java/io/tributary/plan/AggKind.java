package io.tributary.plan;

/**
 * Aggregate functions a streaming aggregation maintains. AVG is planned as SUM / COUNT. SUM of no
 * rows is NULL; SUM0 (from COUNT rewrites) is 0.
 */
public enum AggKind {
    COUNT,
    SUM,
    SUM0,
    MIN,
    MAX,
    BOOL_AND,
    BOOL_OR
}

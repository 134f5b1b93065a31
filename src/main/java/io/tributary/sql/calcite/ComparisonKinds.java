package io.tributary.sql.calcite;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;
import org.apache.calcite.sql.SqlKind;

/**
 * The kinds of PostgreSQL's comparison calls, which compare two operands of one type and pass
 * neither on: the six comparison operators and {@code IS [NOT] DISTINCT FROM}. Unlike Calcite's
 * {@link SqlKind#COMPARISON}, without {@code IN}.
 */
final class ComparisonKinds {
    /** The eight kinds; unmodifiable. */
    static final Set<SqlKind> ALL = Collections.unmodifiableSet(EnumSet.of(
            SqlKind.EQUALS,
            SqlKind.NOT_EQUALS,
            SqlKind.LESS_THAN,
            SqlKind.LESS_THAN_OR_EQUAL,
            SqlKind.GREATER_THAN,
            SqlKind.GREATER_THAN_OR_EQUAL,
            SqlKind.IS_DISTINCT_FROM,
            SqlKind.IS_NOT_DISTINCT_FROM));

    private ComparisonKinds() {}
}

package io.tributary.sql.calcite;

import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelVisitor;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Finds what of a converted view query reads the session's TimeZone in PostgreSQL: a cast between
 * timestamptz and another type (timestamp, date, time, text, including the casts Calcite adds to
 * compare them), {@code extract}, {@code date_trunc} or {@code to_char} of a timestamptz (and {@code to_char} of a
 * date, which PostgreSQL formats as one), {@code to_timestamp} of text, and the current time
 * ({@code localtimestamp}, {@code current_date} ..., the session's local time; {@code now()} and the
 * other timestamptz ones, which a view converts to local time to compare or show). Views are maintained in UTC, so the
 * session refuses such a view in another zone. Stateless; any thread.
 */
final class TimeZoneUse {
    private TimeZoneUse() {}

    /** The first such construct in {@code rel}, named for the error, or null when there is none. */
    static String of(RelNode rel) {
        String[] found = {null};
        RexShuttle finder = new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
                if (found[0] == null) {
                    found[0] = construct(call);
                }
                return super.visitCall(call);
            }
        };
        new RelVisitor() {
            @Override
            public void visit(RelNode node, int ordinal, RelNode parent) {
                node.accept(finder);
                super.visit(node, ordinal, parent);
            }
        }.go(rel);
        return found[0];
    }

    private static String construct(RexCall call) {
        switch (call.getKind()) {
            case CAST -> {
                if (zoned(call.getOperands().get(0)) != zoned(call)) {
                    return "casts between timestamptz and other types";
                }
            }
            case EXTRACT -> {
                if (call.getOperands().size() == 2 && zoned(call.getOperands().get(1))) {
                    return "extract of timestamptz values";
                }
            }
            case FLOOR, CEIL -> {
                if (call.getOperands().size() == 2 && zoned(call.getOperands().get(0))) {
                    return "date_trunc of timestamptz values";
                }
            }
            default -> {
                String name = call.getOperator().getName().toLowerCase(java.util.Locale.ROOT);
                if (call.getKind() == SqlKind.OTHER_FUNCTION && CURRENT_TIME.contains(name)) {
                    return name;
                }
                if (name.equals(PgFormattingCalls.TO_CHAR)
                                && zoned(call.getOperands().get(0))
                        || name.equals(PgFormattingCalls.TO_CHAR)
                                && call.getOperands().get(0).getType().getSqlTypeName() == SqlTypeName.DATE) {
                    return "to_char of timestamptz and date values";
                }
                if (name.equals(PgFormattingCalls.TO_TIMESTAMP)
                        && call.getOperands().size() == 2) {
                    return "to_timestamp of text";
                }
            }
        }
        return null;
    }

    /** Calcite's functions of the current time, which read the session's zone. */
    private static final java.util.Set<String> CURRENT_TIME = java.util.Set.of(
            "current_timestamp",
            "localtimestamp",
            "current_date",
            "current_time",
            "localtime",
            "now",
            "transaction_timestamp",
            "statement_timestamp",
            "clock_timestamp");

    private static boolean zoned(RexNode node) {
        return node.getType().getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
    }
}

package io.tributary.sql.calcite;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;

/**
 * {@code current_timestamp} as PostgreSQL has it: {@code now()}, the transaction's start as a
 * timestamptz ({@link CurrentTimes}); Calcite's is the local time as a timestamp. The column's
 * label stays {@code current_timestamp} ({@link ColumnLabels} reads the statement before the
 * rewrites). {@code current_timestamp(p)} stays Calcite's. Applied by {@link StatementRewrite#applyAll}
 * before validation; one instance per statement.
 */
final class CurrentTimestampCalls extends StatementRewrite {
    private static final String NAME = "CURRENT_TIMESTAMP";

    @Override
    public SqlNode visit(SqlCall call) {
        // the parser leaves the name unresolved: the validator looks it up later
        if (call.operandCount() == 0 && call.getOperator().getName().equalsIgnoreCase(NAME)) {
            return rewritten(PgIntervals.call("now", call.getParserPosition()));
        }
        return super.visit(call);
    }

    @Override
    public SqlNode visit(SqlIdentifier id) {
        // a bare name the validator would make Calcite's niladic call; quoted, it is a column
        if (id.isSimple() && !id.isComponentQuoted(0) && id.getSimple().equalsIgnoreCase(NAME)) {
            return rewritten(PgIntervals.call("now", id.getParserPosition()));
        }
        return id;
    }
}

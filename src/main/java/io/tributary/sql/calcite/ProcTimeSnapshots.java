package io.tributary.sql.calcite;

import io.tributary.common.TributaryException;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSnapshot;

/**
 * In a query (not a view), {@code t FOR SYSTEM_TIME AS OF PROCTIME()} is {@code t}: a query runs at
 * one moment, when the table's current version is the one a temporal join reads, so the join is the
 * plain join against the committed table, as in RisingWave. One instance per statement, on the
 * session's thread.
 */
final class ProcTimeSnapshots extends StatementRewrite {
    /** @throws TributaryException 0A000 for FOR SYSTEM_TIME AS OF anything but PROCTIME() */
    @Override
    public SqlNode visit(SqlCall call) {
        if (call.getKind() == SqlKind.SNAPSHOT) {
            SqlSnapshot snapshot = (SqlSnapshot) call;
            if (!isProcTime(snapshot.getPeriod())) {
                throw TributaryException.notSupported("FOR SYSTEM_TIME AS OF anything but PROCTIME()");
            }
            return rewritten(snapshot.getTableRef().accept(this));
        }
        return super.visit(call);
    }

    /** Whether {@code period} is the call {@code PROCTIME()}. */
    static boolean isProcTime(SqlNode period) {
        return period instanceof SqlCall c
                && c.operandCount() == 0
                && c.getOperator().getName().equalsIgnoreCase(TemporalJoins.PROCTIME);
    }
}

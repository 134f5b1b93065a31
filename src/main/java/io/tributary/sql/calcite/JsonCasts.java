package io.tributary.sql.calcite;

import java.util.Locale;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;

/**
 * Casts to json and jsonb ({@code x::jsonb}, {@code CAST(x AS json)}) as calls of {@link
 * PgJsonFunctions#pg_json_in} and {@link PgJsonFunctions#pg_jsonb_in}, which read text with
 * PostgreSQL's input rules and convert between the two; Calcite has no such types to cast to.
 * Applied by {@link StatementRewrite#applyAll} to every statement on the session's thread.
 */
final class JsonCasts extends StatementRewrite {
    @Override
    public SqlNode visit(SqlCall call) {
        if (call.getKind() == SqlKind.CAST
                && call.operandCount() == 2
                && call.operand(1) instanceof SqlDataTypeSpec spec) {
            SqlIdentifier id = spec.getTypeNameSpec().getTypeName();
            String name = id.isSimple() ? id.getSimple().toLowerCase(Locale.ROOT) : "";
            if (name.equals("json") || name.equals("jsonb")) {
                SqlNode value = call.operand(0).accept(this);
                return rewritten(PgIntervals.call("pg_" + name + "_in", call.getParserPosition(), value));
            }
        }
        return super.visit(call);
    }
}

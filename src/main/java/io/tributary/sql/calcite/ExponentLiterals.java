package io.tributary.sql.calcite;

import java.math.BigDecimal;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Gives a number constant written with an exponent ({@code 1e10}, {@code 2.5E-3}) PostgreSQL's type,
 * {@code numeric}, instead of Calcite's DOUBLE: it becomes the exact constant of the same value
 * ({@code 10000000000}, {@code 0.0025}), with the display scale PostgreSQL gives it (the digits after
 * the point less the exponent, at least 0); a whole one is cast to {@code numeric(p, 0)}, since Calcite
 * types a whole exact constant as an integer. Only a cast ({@code 1e10::float8}) makes it a double
 * there, and the cast still applies to the exact constant. A constant with more digits than
 * {@link TributaryTypeSystem#MAX_NUMERIC_PRECISION} before the point, with an exponent or without,
 * is numeric input of its digits ({@code '1000...'::numeric}), since Calcite's exact literals cannot
 * hold it (it was a DOUBLE with an exponent, an internal error without). Other constants of more
 * digits than that stay as Calcite reads them (a DOUBLE with an exponent, 42601 for more than that
 * many decimals): the unconstrained numeric compares such values wrongly (a known limit). Planning
 * thread.
 */
final class ExponentLiterals extends StatementRewrite {
    @Override
    public SqlNode visit(SqlLiteral literal) {
        if (!(literal instanceof SqlNumericLiteral number)) {
            return literal;
        }
        BigDecimal value = number.getValueAs(BigDecimal.class);
        if (value.scale() < 0) {
            value = value.setScale(0);
        }
        SqlParserPos pos = literal.getParserPosition();
        if (value.precision() - value.scale() > TributaryTypeSystem.MAX_NUMERIC_PRECISION
                && value.scale() <= TributaryTypeSystem.MAX_NUMERIC_PRECISION) {
            // beyond the digits of Calcite's exact types: numeric input of its text, as '...'::numeric reads it
            return rewritten(SqlStdOperatorTable.CAST.createCall(
                    pos,
                    SqlLiteral.createCharString(value.toPlainString(), pos),
                    new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.DECIMAL, pos), pos)));
        }
        if (number.isExact() || value.precision() > TributaryTypeSystem.MAX_NUMERIC_PRECISION) {
            return literal;
        }
        SqlLiteral exact = SqlLiteral.createExactNumeric(value.toPlainString(), pos);
        if (value.scale() > 0) {
            return rewritten(exact);
        }
        // a whole exact constant would be an INTEGER or BIGINT in Calcite; numeric(p, 0) keeps the
        // type numeric and prints the digits alone, as PostgreSQL does
        return rewritten(SqlStdOperatorTable.CAST.createCall(
                pos,
                exact,
                new SqlDataTypeSpec(
                        new SqlBasicTypeNameSpec(SqlTypeName.DECIMAL, Math.max(1, value.precision()), 0, pos), pos)));
    }
}

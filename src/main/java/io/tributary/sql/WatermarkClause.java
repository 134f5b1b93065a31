package io.tributary.sql;

import io.tributary.catalog.ColumnDef;
import io.tributary.catalog.WatermarkDef;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import io.tributary.common.types.DataType;
import io.tributary.common.types.Interval;
import io.tributary.common.types.PgTextFormat;
import io.tributary.common.types.TypeKind;
import java.util.List;

/**
 * A CREATE TABLE's {@code WATERMARK FOR column AS column [- INTERVAL 'n' [unit]]}, as parsed and
 * before its column is resolved (it may come before the column's definition). Called by {@link
 * TableDdlParser} on the parsing thread; immutable.
 *
 * @param column the token naming the watermark's column, which errors point at
 * @param delayMicros how far the watermark trails the column's largest value
 */
record WatermarkClause(Token column, long delayMicros) {
    private static final long MICROS_PER_DAY = 86_400_000_000L;

    /**
     * Reads the clause from {@code WATERMARK}.
     *
     * @throws TributaryException 42601 for bad syntax; 0A000 for an expression other than the
     *     column itself minus a constant interval; 22023 for an interval with months or below zero
     */
    static WatermarkClause parse(TokenCursor in) {
        in.expectWord("watermark");
        in.expectWord("for");
        Token column = in.peek();
        String name = in.identifier();
        in.expectWord("as");
        Token exprColumn = in.peek();
        if (!exprColumn.isIdentifier() || !exprColumn.text().equals(name)) {
            throw notSupported(exprColumn);
        }
        in.next();
        if (!in.acceptSymbol("-")) {
            if (in.peek().isSymbol(",") || in.peek().isSymbol(")")) {
                return new WatermarkClause(column, 0);
            }
            throw notSupported(in.peek());
        }
        in.expectWord("interval");
        Token literal = in.next();
        if (literal.kind() != Token.Kind.STRING) {
            throw TokenCursor.syntaxAt(literal);
        }
        String text = literal.text();
        if (in.peek().kind() == Token.Kind.WORD && !in.peek().isWord("as")) {
            text = text + " " + in.next().text();
        }
        Interval delay;
        try {
            delay = (Interval) PgTextFormat.parse(DataType.INTERVAL, text);
        } catch (TributaryException e) {
            throw TokenCursor.errorAt(e.sqlState(), e.getMessage(), literal);
        }
        long micros = delay.days() * MICROS_PER_DAY + delay.micros();
        if (delay.months() != 0 || micros < 0) {
            throw TokenCursor.errorAt(
                    SqlState.INVALID_PARAMETER_VALUE,
                    "a watermark's delay must be a day-time interval of zero or more",
                    literal);
        }
        return new WatermarkClause(column, micros);
    }

    /**
     * The watermark over the table's {@code columns}.
     *
     * @throws TributaryException 42703 when the column does not exist; 42804 when it is not a
     *     TIMESTAMP or TIMESTAMPTZ; both point at the column's name in the clause
     */
    WatermarkDef resolve(List<ColumnDef> columns) {
        for (int i = 0; i < columns.size(); i++) {
            ColumnDef c = columns.get(i);
            if (c.name().equals(column.text())) {
                TypeKind kind = c.type().kind();
                if (kind != TypeKind.TIMESTAMP && kind != TypeKind.TIMESTAMPTZ) {
                    throw TokenCursor.errorAt(
                            SqlState.DATATYPE_MISMATCH,
                            "the watermark column \"" + c.name() + "\" must be a timestamp, not "
                                    + c.type().kind().pgName(),
                            column);
                }
                return new WatermarkDef(i, delayMicros);
            }
        }
        throw TokenCursor.errorAt(SqlState.UNDEFINED_COLUMN, "column \"" + column.text() + "\" does not exist", column);
    }

    private static TributaryException notSupported(Token at) {
        return TokenCursor.errorAt(
                SqlState.FEATURE_NOT_SUPPORTED,
                "a watermark expression other than the column minus a constant interval is not supported",
                at);
    }
}

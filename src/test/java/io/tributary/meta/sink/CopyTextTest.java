package io.tributary.meta.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tributary.common.types.DataType;
import io.tributary.common.types.PgTextFormat;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** COPY text of integers, written without strings, is PostgreSQL's text form of each value. */
class CopyTextTest {
    @Test
    void integersAreTheirTextForm() {
        List<DataType> types = List.of(DataType.SMALLINT, DataType.INTEGER, DataType.BIGINT, DataType.TEXT);
        CopyText text = new CopyText(types, new int[] {0, 1, 2, 3}, new int[] {0}, false);
        long[] values = {0, 7, -7, 10, -10, 99, 1_000_000, Integer.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE};
        StringBuilder expected = new StringBuilder();
        for (long v : values) {
            Object[] row = {
                (short) (v % 1000), (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, v)), v, null
            };
            text.add(row, 'U');
            for (int c = 0; c < 3; c++) {
                expected.append(PgTextFormat.format(types.get(c), row[c])).append('\t');
            }
            expected.append("\\N\n");
        }
        assertEquals(expected.toString(), new String(text.bytes(), StandardCharsets.UTF_8));
    }
}

package io.tributary.sql.calcite;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.tributary.common.types.TypeKind;
import io.tributary.sql.StatementPlan;
import io.tributary.sql.calcite.LiteralInsertText.TypedString;
import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link LiteralInsertText} reads the statements it accepts into the same cells as Calcite's
 * parser with {@link InsertSources#literalRows} (the general path), and refuses what it does not
 * read, so that the general path takes those.
 */
class LiteralInsertTextTest {
    @ParameterizedTest
    @ValueSource(
            strings = {
                "INSERT INTO orders VALUES (1, 2, 3.50, 'new')",
                "insert into Orders (ID, amount) values (-7, -0.05), (0007, 12345678901234567890123)",
                "INSERT INTO t VALUES ('it''s', '', 'a\\b', NULL, TRUE, false, DEFAULT)",
                "INSERT INTO t VALUES ('5', '  x ', 'é ünïcode'),\n\t('99999999999', '-', '0')",
                "  INSERT   INTO t_1(a_b)VALUES(1)  ",
            })
    void readsWhatCalciteParses(String sql) throws Exception {
        LiteralInsertText.ConstantInsert read = LiteralInsertText.read(sql);
        assertNotNull(read);
        SqlInsert insert =
                (SqlInsert) SqlParser.create(sql, CalciteSettings.PARSER).parseStmt();
        List<Object[]> expected = InsertSources.literalRows((SqlCall) insert.getSource(), new int[0], null, new int[0]);
        assertEquals(expected.size(), read.rows().size());
        for (int i = 0; i < expected.size(); i++) {
            // BigDecimal's equals compares the scale too: 3.50 stays 3.50, as PostgreSQL's numeric keeps it
            assertArrayEquals(expected.get(i), read.rows().get(i));
        }
        SqlNode target = insert.getTargetTable();
        assertEquals(target.toString().toLowerCase(java.util.Locale.ROOT), read.table());
        if (insert.getTargetColumnList() == null) {
            assertNull(read.columns());
        } else {
            assertEquals(
                    insert.getTargetColumnList().stream()
                            .map(n -> n.toString().toLowerCase(java.util.Locale.ROOT))
                            .toList(),
                    read.columns());
        }
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "INSERT INTO t VALUES (1) RETURNING *",
                "INSERT INTO t VALUES (1) ON CONFLICT DO NOTHING",
                "INSERT INTO t VALUES (1);",
                "INSERT INTO t VALUES (1 + 1)",
                "INSERT INTO t VALUES (1e5)",
                "INSERT INTO t VALUES (.5)",
                "INSERT INTO t VALUES (5.)",
                "INSERT INTO t VALUES (- 5)",
                "INSERT INTO t VALUES (+5)",
                "INSERT INTO t VALUES ('a' 'b')",
                "INSERT INTO t VALUES ('a'::text[])",
                "INSERT INTO t VALUES ('a'::varchar(3))",
                "INSERT INTO t VALUES ('a'::string)",
                "INSERT INTO t VALUES ('a'::int::text)",
                "INSERT INTO t VALUES ('a'::\"int\")",
                "INSERT INTO t VALUES (5::int)",
                "INSERT INTO t VALUES (E'\\x41')",
                "INSERT INTO t VALUES (E'\\101')",
                "INSERT INTO t VALUES (E'\\u0041')",
                "INSERT INTO t VALUES (E'a' 'b')",
                "INSERT INTO t VALUES (now())",
                "INSERT INTO t VALUES ($0)",
                "INSERT INTO t VALUES ($1a)",
                "INSERT INTO t VALUES ($1.5)",
                "INSERT INTO t VALUES ($)",
                "INSERT INTO t VALUES ($1::int)",
                "INSERT INTO t VALUES (?)",
                "INSERT INTO t VALUES ()",
                "INSERT INTO t VALUES (1), ",
                "INSERT INTO t VALUES (1 -- comment\n)",
                "INSERT INTO t VALUES (1 /* comment */)",
                "INSERT INTO public.t VALUES (1)",
                "INSERT INTO \"T\" VALUES (1)",
                "INSERT INTO select VALUES (1)",
                "INSERT INTO t SELECT 1",
                "INSERT INTO t DEFAULT VALUES",
                "INSERT INTO t VALUES ('unterminated)",
                "INSERT INTO t VALUES (DATE '2024-01-01')",
                "INSERT INTO t VALUES (nullx)",
                "UPDATE t SET a = 1",
            })
    void refusesTheRest(String sql) {
        assertNull(LiteralInsertText.read(sql));
    }

    @Test
    void readsParametersEscapeStringsAndCasts() {
        LiteralInsertText.ConstantInsert read = LiteralInsertText.read(
                "INSERT INTO t VALUES ($2, E'it\\'s\\t\\\\ ''x''', '5' :: INT4, e'\\n'), ($1, $10, 'd'::date, '')");
        assertNotNull(read);
        assertEquals(10, read.parameterCount());
        assertArrayEquals(
                new Object[] {
                    new StatementPlan.ParamRef(2), "it's\t\\ 'x'", new TypedString("5", TypeKind.INTEGER), "\n"
                },
                read.rows().get(0));
        assertArrayEquals(
                new Object[] {
                    new StatementPlan.ParamRef(1),
                    new StatementPlan.ParamRef(10),
                    new TypedString("d", TypeKind.DATE),
                    ""
                },
                read.rows().get(1));
    }

    @Test
    void keepsManyRowsInOrder() {
        StringBuilder sql = new StringBuilder("INSERT INTO t (a, b) VALUES ");
        for (int i = 0; i < 500; i++) {
            sql.append(i == 0 ? "" : ", ")
                    .append('(')
                    .append(i)
                    .append(", 'r")
                    .append(i)
                    .append("')");
        }
        LiteralInsertText.ConstantInsert read = LiteralInsertText.read(sql.toString());
        assertEquals(500, read.rows().size());
        assertArrayEquals(
                new Object[] {new java.math.BigDecimal(499), "r499"},
                read.rows().get(499));
    }
}

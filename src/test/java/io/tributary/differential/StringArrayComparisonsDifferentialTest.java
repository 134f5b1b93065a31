package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code x op ANY/ALL (ARRAY[...])} with string constants in the array, against embedded
 * PostgreSQL: an array of string constants alone is {@code text[]}, so a boolean, integer, date or
 * numeric column compared with it has no operator (42883), where the array text {@code '{...}'}
 * and an array mixing a string with a typed element take the column's or the element's type.
 * Rows with labels and JDBC types, or SQLSTATE, message and HINT (the cursor position is not
 * compared: Tributary's points at the comparison's start, PostgreSQL's at its operator).
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class StringArrayComparisonsDifferentialTest {
    private static final String SETUP =
            "CREATE TABLE t (id INT PRIMARY KEY, bo BOOLEAN, x INT, d DATE, n NUMERIC, s TEXT, c CHAR(3));"
                    + "INSERT INTO t VALUES (1, true, 1, DATE '2024-01-01', 1.5, 'a', 'a'),"
                    + " (2, false, 2, DATE '2024-06-01', 2, 'b', 'b  '),"
                    + " (3, NULL, NULL, NULL, NULL, NULL, NULL)";

    private static final List<String> STATEMENTS = List.of(
            "SELECT id FROM t WHERE bo = any(array['yes']) ORDER BY id",
            "SELECT id FROM t WHERE bo = any(array['t', 'f']) ORDER BY id",
            "SELECT id FROM t WHERE bo = any(array[NULL, 't']) ORDER BY id",
            "SELECT id FROM t WHERE x = any(array['1', '2']) ORDER BY id",
            "SELECT id FROM t WHERE x <> all(array['1']) ORDER BY id",
            "SELECT id FROM t WHERE x < any(array['2', '3']) ORDER BY id",
            "SELECT id FROM t WHERE d = any(array['2024-01-01']) ORDER BY id",
            "SELECT id FROM t WHERE n = any(array['1.5']) ORDER BY id",
            "SELECT id FROM t WHERE s = any(array['a', 'c']) ORDER BY id",
            "SELECT id FROM t WHERE s <> all(array['a']) ORDER BY id",
            "SELECT id FROM t WHERE c = any(array['b', 'c']) ORDER BY id",
            "SELECT id FROM t WHERE x = any('{1,2}') ORDER BY id",
            "SELECT id FROM t WHERE bo = any('{t}') ORDER BY id",
            "SELECT id FROM t WHERE d = any('{2024-06-01}') ORDER BY id",
            "SELECT id FROM t WHERE x = any(array['1', 2]) ORDER BY id",
            "SELECT id FROM t WHERE bo = any(array['yes'::boolean]) ORDER BY id",
            "SELECT id FROM t WHERE d = any(array['2024-01-01', d]) ORDER BY id",
            "SELECT id, x = any(array['1']) AS m FROM t ORDER BY id");

    @RegisterExtension
    static final ComparedPair BOTH =
            new ComparedPair("string-array-diff-", SETUP, new ComparedOutcomes(true, true, false));

    @Test
    void anArrayOfStringConstantsIsTextLikePostgres() {
        assertEquals(List.of(), BOTH.mismatches(STATEMENTS));
    }
}

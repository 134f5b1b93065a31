package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Writes that read array columns, against embedded PostgreSQL: {@code RETURNING} of INSERT,
 * UPDATE and DELETE on a table with array columns, {@code ON CONFLICT DO UPDATE} reading {@code
 * excluded}'s arrays, and {@code ||} with an array column (append, prepend, concatenate) in
 * queries and SET lists. Statements run in order on both; each outcome is compared exactly (rows
 * with labels and JDBC types, or SQLSTATE, message and HINT).
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ArrayColumnDmlDifferentialTest {
    private static final List<String> STATEMENTS = List.of(
            "CREATE TABLE a1 (id INT PRIMARY KEY, tags TEXT[], nums INT[], ds DATE[])",
            "INSERT INTO a1 VALUES (1, '{a,b}', '{1,2}', '{2024-01-01}') RETURNING *",
            "INSERT INTO a1 VALUES (2, ARRAY['x', NULL], NULL, '{}')"
                    + " RETURNING id, tags[1], array_length(nums, 1), cardinality(ds)",
            "UPDATE a1 SET tags = tags || 'c'::text WHERE id = 1 RETURNING tags, nums",
            "UPDATE a1 SET nums = nums || 3, ds = ds || DATE '2024-02-01' WHERE id = 1 RETURNING *",
            "UPDATE a1 SET nums = 0 || nums WHERE id = 1 RETURNING nums",
            "INSERT INTO a1 VALUES (1, '{z}', '{9}', NULL) ON CONFLICT (id)"
                    + " DO UPDATE SET tags = excluded.tags || a1.tags, nums = excluded.nums RETURNING *",
            "SELECT id, tags || tags AS t, nums || 5 AS n, 7 || nums AS p, nums || ARRAY[8, 9] AS c FROM a1 ORDER BY id",
            "SELECT nums || 'x'::text FROM a1",
            "DELETE FROM a1 WHERE id = 2 RETURNING *",
            "SELECT * FROM a1 ORDER BY id");

    /**
     * An array beside an element of another type: PostgreSQL answers with the common type ({@code
     * numeric[]}), never the array's own element type (which truncated 2.7 to 2 and wrapped
     * 3000000000).
     */
    private static final List<String> MIXED = List.of(
            "SELECT nums || 2.7 FROM a1", "SELECT 2.5::float8 || nums FROM a1", "SELECT nums || 3000000000 FROM a1");

    /** PostgreSQL and Tributary, outcomes compared with types by JDBC number, errors with their hint. */
    @RegisterExtension
    static final ComparedPair BOTH = new ComparedPair("array-dml-diff-", "", new ComparedOutcomes(true, true));

    @Test
    void arrayColumnsInReturningConflictsAndConcatenationAnswerLikePostgres() {
        assertEquals(List.of(), BOTH.mismatches(STATEMENTS));
        assertEquals(List.of(), BOTH.mismatches(MIXED));
    }
}

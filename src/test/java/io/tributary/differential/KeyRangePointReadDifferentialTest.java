package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tributary.differential.StepwiseComparison.Prepared;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Key-range UPDATE and DELETE whose range is short enough to be read by point reads of each key
 * ({@code KeyRangeQuery}) rather than a scan: on int, smallint and bigint keys, over sparse rows,
 * at the types' bounds, and on both sides of the point-read limit (1,024 keys), against an
 * embedded PostgreSQL; each statement's count or SQLSTATE and the tables after it must agree.
 */
class KeyRangePointReadDifferentialTest {
    private static final List<String> SETUP = List.of(
            "CREATE TABLE ki (id INT PRIMARY KEY, v INT, t TEXT)",
            "INSERT INTO ki SELECT x * 3, x, 'r' || CAST(x AS VARCHAR) FROM generate_series(-400, 400) AS s(x)",
            "INSERT INTO ki VALUES (2147483647, 1, 'max'), (-2147483648, 2, 'min'), (2147483646, 3, 'max-1')",
            "CREATE TABLE ks (id SMALLINT PRIMARY KEY, v INT)",
            "INSERT INTO ks VALUES (-32768, 1), (-1, 2), (0, 3), (5, 4), (32767, 5)",
            "CREATE TABLE kb (id BIGINT PRIMARY KEY, v INT)",
            "INSERT INTO kb SELECT x * 1000, x FROM generate_series(1, 50) AS s(x)",
            "INSERT INTO kb VALUES (9223372036854775807, 1), (-9223372036854775808, 2)");

    private static final List<String> LITERAL = List.of(
            "UPDATE ki SET v = v + 1 WHERE id BETWEEN -30 AND 30",
            "UPDATE ki SET t = 'a' WHERE id BETWEEN 1 AND 1024",
            "UPDATE ki SET t = 'b' WHERE id BETWEEN 1 AND 1025",
            "UPDATE ki SET t = 'c' WHERE id BETWEEN -1200 AND -177",
            "UPDATE ki SET v = v * 1 + 7 WHERE id BETWEEN 2147483000 AND 2147483647",
            "UPDATE ki SET v = v - 7 WHERE id BETWEEN -2147483648 AND -2147483000",
            "UPDATE ki SET v = v + 2147483647 WHERE id BETWEEN 2 AND 4",
            "DELETE FROM ki WHERE id BETWEEN 100 AND 200",
            "DELETE FROM ki WHERE id BETWEEN 2147483646 AND 2147483647",
            "UPDATE ks SET v = v + 1 WHERE id BETWEEN -32768 AND -32000",
            "UPDATE ks SET v = v + 1 WHERE id BETWEEN -10 AND 10",
            "UPDATE ks SET v = v + 1 WHERE id BETWEEN 32000 AND 32767",
            "DELETE FROM ks WHERE id BETWEEN -1 AND 0",
            "UPDATE kb SET v = v + 1 WHERE id BETWEEN 1500 AND 2500",
            "UPDATE kb SET v = v + 1 WHERE id BETWEEN 9223372036854775000 AND 9223372036854775807",
            "UPDATE kb SET v = v + 1 WHERE id BETWEEN -9223372036854775808 AND 9223372036854775807",
            "DELETE FROM kb WHERE id BETWEEN -9223372036854775808 AND -9223372036854775000",
            "DELETE FROM kb WHERE id BETWEEN 3000 AND 4000");

    private static final List<Prepared> PREPARED = List.of(
            new Prepared("UPDATE ki SET v = v + ? WHERE id BETWEEN ? AND ?", List.of(5, -99, 99)),
            new Prepared("UPDATE ki SET v = v + ? WHERE id BETWEEN ? AND ?", List.of(5, 300, 1323)),
            new Prepared("UPDATE ki SET v = v + ? WHERE id BETWEEN ? AND ?", List.of(5, 300, 1324)),
            new Prepared("DELETE FROM ki WHERE id BETWEEN ? AND ?", List.of(-600, -500)),
            new Prepared("UPDATE kb SET v = v + ? WHERE id BETWEEN ? AND ?", List.of(1, 10_000L, 10_900L)),
            new Prepared("DELETE FROM kb WHERE id BETWEEN ? AND ?", List.of(20_000L, 20_001L)));

    private static StepwiseComparison servers;

    @BeforeAll
    static void start() throws Exception {
        servers = StepwiseComparison.start(
                "keyrange-point-diff-",
                SETUP,
                List.of(
                        "SELECT * FROM ki ORDER BY id",
                        "SELECT * FROM ks ORDER BY id",
                        "SELECT * FROM kb ORDER BY id"));
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(servers);
    }

    @Test
    void changesLikePostgres() {
        assertEquals(List.of(), servers.mismatches(LITERAL, PREPARED));
    }
}

package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * INSERT ... ON CONFLICT on a unique column that is not the primary key, against an embedded
 * PostgreSQL: a conflict on the primary key is no conflict of the arbiter, so PostgreSQL raises
 * 23505 on it (DO NOTHING and DO UPDATE alike), whether the duplicate key is another proposed row's
 * or an existing row's, and the statement writes nothing.
 */
class OnConflictPrimaryKeyDifferentialTest {
    private static final List<String> STATEMENTS = List.of(
            "CREATE TABLE oc (id INT PRIMARY KEY, u INT UNIQUE, v TEXT)",
            "INSERT INTO oc VALUES (1, 10, 'a')",
            "INSERT INTO oc VALUES (2, 20, 'b'), (2, 21, 'c') ON CONFLICT (u) DO NOTHING",
            "SELECT * FROM oc ORDER BY id",
            "INSERT INTO oc VALUES (3, 30, 'b'), (3, 31, 'c') ON CONFLICT (u) DO UPDATE SET v = excluded.v",
            "SELECT * FROM oc ORDER BY id",
            "INSERT INTO oc VALUES (1, 11, 'd') ON CONFLICT (u) DO NOTHING",
            "INSERT INTO oc VALUES (1, 11, 'd') ON CONFLICT (u) DO UPDATE SET v = excluded.v",
            "INSERT INTO oc VALUES (4, 40, 'e'), (1, 12, 'f') ON CONFLICT (u) DO NOTHING",
            "SELECT * FROM oc ORDER BY id",
            "INSERT INTO oc VALUES (5, 10, 'g') ON CONFLICT (u) DO NOTHING",
            "INSERT INTO oc VALUES (5, 10, 'g') ON CONFLICT (u) DO UPDATE SET v = excluded.v",
            "INSERT INTO oc VALUES (1, 10, 'h') ON CONFLICT (u) DO UPDATE SET v = excluded.v",
            "INSERT INTO oc VALUES (6, 60, 'i'), (7, 60, 'j') ON CONFLICT (u) DO NOTHING",
            "SELECT * FROM oc ORDER BY id",
            "INSERT INTO oc VALUES (8, 80, 'k'), (8, 80, 'l') ON CONFLICT (u) DO NOTHING",
            "SELECT * FROM oc ORDER BY id",
            "INSERT INTO oc VALUES (9, 90, 'm'), (9, 91, 'n') ON CONFLICT (id) DO NOTHING",
            "SELECT * FROM oc ORDER BY id");

    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("on-conflict-pk-");
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    @Test
    void primaryKeyConflictsBesideTheArbiterAnswerAsPostgres() {
        List<String> mismatches = pair.mismatches(STATEMENTS);
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }
}

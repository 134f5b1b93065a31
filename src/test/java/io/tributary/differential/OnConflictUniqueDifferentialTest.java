package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code INSERT ... ON CONFLICT} arbitrating on UNIQUE constraints and unique indexes rather than
 * the primary key, on Tributary and on an embedded PostgreSQL: a conflict target naming a unique
 * column set or constraint, no target (every unique index arbitrates), DO NOTHING, DO UPDATE with
 * EXCLUDED, WHERE and RETURNING, two proposed rows with one value (skipped, or 21000), NULLs
 * (distinct: no conflict), a primary key or another unique index that is no arbiter (23505),
 * and targets that match no unique index (42P10, 42704). Each statement's rows or error, and the
 * table after all of them (with the SERIAL values each statement consumed), must be PostgreSQL's.
 */
class OnConflictUniqueDifferentialTest {
    private static PostgresPair pair;

    @BeforeAll
    static void start() throws Exception {
        pair = PostgresPair.start("onconflict-unique-");
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(pair);
    }

    @Test
    void uniqueArbitersAnswerAsPostgres() {
        List<String> mismatches = pair.mismatches(List.of(
                "CREATE TABLE uu (id serial PRIMARY KEY, email text UNIQUE, n int, CONSTRAINT uu_n_key2 UNIQUE (n))",
                "CREATE UNIQUE INDEX uu_pair ON uu (email, n)",
                "INSERT INTO uu (email, n) VALUES ('a', 1), ('b', 2)",
                "INSERT INTO uu (email, n) VALUES ('a', 10) ON CONFLICT (email) DO NOTHING",
                "INSERT INTO uu (email, n) VALUES ('a', 11) ON CONFLICT (email) DO UPDATE SET n = EXCLUDED.n"
                        + " RETURNING id, email, n",
                "INSERT INTO uu (email, n) VALUES ('c', 3), ('c', 4) ON CONFLICT (email) DO NOTHING RETURNING email, n",
                "INSERT INTO uu (email, n) VALUES ('d', 5), ('d', 6) ON CONFLICT (email) DO UPDATE SET n = EXCLUDED.n",
                "INSERT INTO uu (email, n) VALUES ('b', 30), ('b', 31) ON CONFLICT (email) DO UPDATE SET n = EXCLUDED.n",
                "INSERT INTO uu (email, n) VALUES ('e', 2) ON CONFLICT (email) DO NOTHING",
                "INSERT INTO uu (email, n) VALUES ('e', 2) ON CONFLICT DO NOTHING",
                "INSERT INTO uu (id, email, n) VALUES (1, 'f', 7) ON CONFLICT (email) DO NOTHING",
                "INSERT INTO uu (id, email, n) VALUES (1, 'f', 7) ON CONFLICT DO NOTHING",
                "INSERT INTO uu (email, n) VALUES ('b', 12) ON CONFLICT ON CONSTRAINT uu_email_key"
                        + " DO UPDATE SET n = uu.n + 100 WHERE uu.n < 50",
                "INSERT INTO uu (email, n) VALUES ('b', 13) ON CONFLICT ON CONSTRAINT uu_email_key"
                        + " DO UPDATE SET n = uu.n + 100 WHERE uu.n < 50",
                "INSERT INTO uu (email, n) VALUES (NULL, 20), (NULL, 21) ON CONFLICT (email) DO NOTHING",
                "INSERT INTO uu (email, n) VALUES ('g', 1) ON CONFLICT (email) DO UPDATE SET n = 2",
                "INSERT INTO uu (email, n) VALUES ('a', 99) ON CONFLICT (email) DO UPDATE SET email = 'b'",
                "INSERT INTO uu (email, n) VALUES ('a', 99) ON CONFLICT (email) DO UPDATE SET email = 'z'"
                        + " RETURNING email, n",
                "INSERT INTO uu (email, n) VALUES ('z', 11), ('y', 40) ON CONFLICT (n, email) DO NOTHING",
                "INSERT INTO uu (email, n) VALUES ('x', 1) ON CONFLICT (n) DO UPDATE SET email = EXCLUDED.email"
                        + " RETURNING email, n",
                "INSERT INTO uu (email, n) VALUES ('x', 1) ON CONFLICT (id, n) DO NOTHING",
                "INSERT INTO uu (email, n) VALUES ('x', 1) ON CONFLICT ON CONSTRAINT nosuch DO NOTHING",
                "INSERT INTO uu (email, n) VALUES ('x', 1) ON CONFLICT ON CONSTRAINT uu_pair DO NOTHING",
                "SELECT id, email, n FROM uu ORDER BY id",
                "CREATE TABLE nokey (code text UNIQUE, v int)",
                "INSERT INTO nokey VALUES ('p', 1), ('q', 2)",
                "INSERT INTO nokey VALUES ('p', 10), ('r', 3) ON CONFLICT (code) DO UPDATE SET v = nokey.v + EXCLUDED.v",
                "INSERT INTO nokey VALUES ('q', 20) ON CONFLICT DO NOTHING",
                "SELECT code, v FROM nokey ORDER BY code"));
        assertEquals(List.of(), mismatches, String.join("\n", mismatches));
    }
}

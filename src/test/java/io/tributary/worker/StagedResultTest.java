package io.tributary.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.connector.postgres.UpstreamPostgres;
import io.tributary.meta.jobs.JobsDatabase;
import io.tributary.meta.jobs.RemoteJob;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A view job's result staged in {@code tributary_job_results} ({@link StagedResult}): every chunk
 * of an attempt that owns the job commits, all of them over one connection (a connection per chunk
 * was most of a loaded worker's staging time), and no chunk commits once another attempt claimed
 * the job. Embedded PostgreSQL.
 */
class StagedResultTest {
    /** More than two chunks of 5,000 pairs. */
    private static final int PAIRS = 12_000;

    private DataSource jobs;
    private final AtomicInteger connections = new AtomicInteger();
    private DataSource counted;

    @BeforeEach
    void jobsDatabase() throws Exception {
        String db = "jobs_staged_" + Long.toHexString(System.nanoTime());
        UpstreamPostgres.execute("CREATE DATABASE " + db);
        jobs = JobsDatabase.dataSource(
                "jdbc:postgresql://localhost:" + UpstreamPostgres.server().getPort() + "/" + db + "?user=postgres",
                "staged-result-test");
        JobsDatabase.prepare(jobs);
        execute("INSERT INTO tributary_remote_jobs (id, kind, owner, format_version, payload, state, worker, attempts)"
                + " VALUES ('view-1', 'view-snapshot', 'v', " + RemoteJob.FORMAT_VERSION
                + ", '\\x00', 'running', 'w1', 1)");
        counted = (DataSource) Proxy.newProxyInstance(
                DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                    if (method.getName().equals("getConnection")) {
                        connections.incrementAndGet();
                    }
                    try {
                        return method.invoke(jobs, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @Test
    void everyChunkOfTheOwningAttemptCommitsOverOneConnection() throws Exception {
        try (StagedResult result = new StagedResult(counted, "view-1", 1, "w1")) {
            for (int i = 0; i < PAIRS; i++) {
                result.accept(key(i), new byte[] {(byte) i});
            }
            assertTrue(result.complete());
            assertEquals(PAIRS, result.staged());
        }
        assertEquals(
                PAIRS,
                count("SELECT count(DISTINCT seq) FROM tributary_job_results WHERE job_id = 'view-1'"
                        + " AND attempt = 1"));
        assertEquals(1, connections.get());
    }

    @Test
    void noChunkCommitsOnceAnotherAttemptClaimedTheJob() throws Exception {
        try (StagedResult result = new StagedResult(counted, "view-1", 1, "w1")) {
            for (int i = 0; i < 5_000; i++) {
                result.accept(key(i), new byte[] {1});
            }
            execute("UPDATE tributary_remote_jobs SET attempts = 2, worker = 'w2' WHERE id = 'view-1'");
            for (int i = 5_000; i < PAIRS; i++) {
                result.accept(key(i), new byte[] {1});
            }
            assertFalse(result.complete());
        }
        assertEquals(5_000, count("SELECT count(*) FROM tributary_job_results WHERE job_id = 'view-1'"));
    }

    private static byte[] key(int i) {
        return ByteBuffer.allocate(4).putInt(i).array();
    }

    private void execute(String sql) throws Exception {
        try (Connection c = jobs.getConnection();
                Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private long count(String sql) throws Exception {
        try (Connection c = jobs.getConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}

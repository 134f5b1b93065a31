package io.tributary.meta.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tributary.connector.postgres.UpstreamPostgres;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * The server's housekeeping of the jobs database ({@link DbJobScheduler}, at start): what cancelled
 * jobs and jobs without a row staged is removed, and what running, waiting, finished or
 * fallen-back jobs staged is kept (a finished job's result is read when its owner re-attaches, a
 * fallen-back job's checkpoints when the server resumes from them). Embedded PostgreSQL.
 */
class JobsDatabaseSweepTest {
    @Test
    void startRemovesWhatCancelledAndUnknownJobsStagedAndKeepsTheRest() throws Exception {
        String db = "jobs_sweep_" + Long.toHexString(System.nanoTime());
        UpstreamPostgres.execute("CREATE DATABASE " + db);
        DataSource ds = JobsDatabase.dataSource(
                "jdbc:postgresql://localhost:" + UpstreamPostgres.server().getPort() + "/" + db + "?user=postgres",
                "sweep-test");
        JobsDatabase.prepare(ds);
        try (Connection c = ds.getConnection();
                Statement s = c.createStatement()) {
            for (String state : List.of("cancelled", "running", "waiting", "done", "local")) {
                s.execute(
                        "INSERT INTO tributary_remote_jobs (id, kind, owner, format_version, payload, state) VALUES ('"
                                + state + "', 'view-snapshot', 'v', " + RemoteJob.FORMAT_VERSION + ", '\\x00', '"
                                + state
                                + "')");
            }
            for (String job : List.of("cancelled", "running", "waiting", "done", "local", "unknown")) {
                s.execute("INSERT INTO tributary_job_checkpoints VALUES ('" + job + "', 1, 0, '\\x01', NULL)");
                s.execute("INSERT INTO tributary_job_results VALUES ('" + job + "', 1, 0, '\\x01', '\\x02')");
            }
        }
        new DbJobScheduler(JobsConnections.over(ds, "sweep-test", 2), new LocalJobScheduler(), 60_000).close();
        List<String> kept = List.of("done", "local", "running", "waiting");
        assertEquals(kept, jobs(ds, "tributary_job_checkpoints"));
        assertEquals(kept, jobs(ds, "tributary_job_results"));
    }

    private static List<String> jobs(DataSource ds, String table) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = ds.getConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT job_id FROM " + table + " ORDER BY job_id")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}

package io.tributary.meta.ddl;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The durable record of a materialized view being created (a job), committed with the view's
 * catalog record and removed in the epoch the view goes live. Its id is the view's id.
 *
 * @param viewId the view (and job) id
 * @param statement the CREATE statement, for SHOW JOBS
 * @param background whether the statement returned at once; a foreground job whose client a
 *     crash disconnected is removed at restart, a background one resumes
 * @param pin the name of the pinned snapshot of the upstreams the backfill reads
 * @param snapshotEpoch the epoch that snapshot holds
 * @param progressTableId where the backfill keeps its per-vnode positions
 * @param rateLimit rows per second per parallel unit, -1 unlimited, 0 paused
 * @param startedAtMillis when the job was created (wall clock)
 * @param refresh whether REFRESH started it for a view created {@code WITH NO DATA}: cancelled or
 *     failed, it leaves that view unpopulated instead of removing it; false in older records
 */
// a record of session 34 may hold "awaitsRefresh" (a paused job then stood for WITH NO DATA): read as paused
@JsonIgnoreProperties(ignoreUnknown = true)
public record BackfillJobRecord(
        int viewId,
        String statement,
        boolean background,
        String pin,
        long snapshotEpoch,
        int progressTableId,
        long rateLimit,
        long startedAtMillis,
        boolean refresh) {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PREFIX = "job/";

    public static byte[] key(int viewId) {
        return (PREFIX + viewId).getBytes(StandardCharsets.UTF_8);
    }

    static byte[] prefixStart() {
        return PREFIX.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] prefixEnd() {
        return "job0".getBytes(StandardCharsets.UTF_8);
    }

    BackfillJobRecord withRateLimit(long rate) {
        return new BackfillJobRecord(
                viewId, statement, background, pin, snapshotEpoch, progressTableId, rate, startedAtMillis, refresh);
    }

    byte[] encode() {
        try {
            return JSON.writeValueAsBytes(this);
        } catch (IOException e) {
            throw new TributaryException(SqlState.INTERNAL_ERROR, "cannot encode job record", e);
        }
    }

    public static BackfillJobRecord decode(byte[] bytes) {
        try {
            return JSON.readValue(bytes, BackfillJobRecord.class);
        } catch (IOException e) {
            throw new TributaryException(SqlState.INTERNAL_ERROR, "corrupt job record", e);
        }
    }
}

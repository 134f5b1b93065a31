package io.tributary.meta.jobs;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.io.IOException;
import java.util.function.ToIntFunction;

/**
 * Encodes and decodes the payloads of remote jobs (JSON, like the catalog records they carry) and
 * checks their format version, so that a worker of another build refuses a job instead of
 * misreading it. Stateless; any thread.
 */
public final class JobPayload {
    private static final ObjectMapper JSON = new ObjectMapper();

    private JobPayload() {}

    /** The payload of {@code job}, a record of plain values and catalog records. */
    public static byte[] encode(Object job) {
        try {
            return JSON.writeValueAsBytes(job);
        } catch (IOException e) {
            throw new IllegalStateException(
                    "a job payload of " + job.getClass().getSimpleName() + " is always serializable", e);
        }
    }

    /**
     * Reads a payload of type {@code type}.
     *
     * @param formatVersion the format version the payload says it has
     * @throws TributaryException 0A000 when it is unreadable or of another format version than
     *     {@link RemoteJob#FORMAT_VERSION}
     */
    public static <T> T decode(byte[] payload, Class<T> type, ToIntFunction<T> formatVersion) {
        T job;
        try {
            job = JSON.readValue(payload, type);
        } catch (IOException e) {
            throw new TributaryException(
                    SqlState.FEATURE_NOT_SUPPORTED,
                    "this worker cannot read the job (job format " + RemoteJob.FORMAT_VERSION + " expected): "
                            + e.getMessage());
        }
        int version = formatVersion.applyAsInt(job);
        if (version != RemoteJob.FORMAT_VERSION) {
            throw new TributaryException(
                    SqlState.FEATURE_NOT_SUPPORTED,
                    "the job is of format " + version + " and this worker runs format " + RemoteJob.FORMAT_VERSION
                            + "; run a worker of the server's version");
        }
        return job;
    }
}

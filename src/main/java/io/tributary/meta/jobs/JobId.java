package io.tributary.meta.jobs;

/**
 * The id of a scheduled job, unique in the shared jobs database. Derived from the catalog record
 * the job belongs to (e.g. {@code sink-3-g0}: sink 3, generation 0), so the catalog that survives
 * a restart names the job again and the server re-attaches to it instead of starting it anew.
 */
public record JobId(String value) {
    @Override
    public String toString() {
        return value;
    }
}

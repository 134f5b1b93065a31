package io.tributary.meta.ddl;

/**
 * How far one cross-database input of a materialized view is behind its upstream, as
 * {@code tributary_catalog.cross_database_inputs} shows it.
 *
 * @param view the reading view, in this database
 * @param database the upstream database
 * @param relation the upstream table
 * @param consumedEpoch the upstream epoch through which every vnode has read the table, as of this
 *     database's last commit, so a query of the view sees at least that (-1 while the view is being
 *     created)
 * @param upstreamEpoch the upstream database's last committed epoch
 * @param lagEpochs upstream epochs that changed the table and are not read yet (counted to 1000)
 * @param lagMillis commit time of {@code upstreamEpoch} minus that of {@code consumedEpoch}
 */
public record CrossDatabaseLag(
        String view,
        String database,
        String relation,
        long consumedEpoch,
        long upstreamEpoch,
        long lagEpochs,
        long lagMillis) {}

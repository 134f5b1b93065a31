package io.tributary.catalog.pg;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code pg_stat_activity}: one row per client session of the server ({@link PgSession#backends}),
 * with PostgreSQL 14's columns. Tributary has no background processes in this view and no
 * transaction ids, so {@code backend_type} is always {@code client backend} and the xid columns,
 * {@code leader_pid}, {@code wait_event*} and {@code query_id} are NULL; {@code client_addr} is text
 * rather than inet.
 */
final class PgActivity {
    /** PostgreSQL 14's OID of the view. */
    private static final long OID = 12018;

    private PgActivity() {}

    static PgTable table(String schema, PgSession session) {
        return new PgTable(
                schema,
                "pg_stat_activity",
                OID,
                "v",
                PgColumn.parse("datid oid, datname name, pid int4, leader_pid int4, usesysid oid, usename name,"
                        + " application_name text, client_addr text, client_hostname text, client_port int4,"
                        + " backend_start timestamptz, xact_start timestamptz, query_start timestamptz,"
                        + " state_change timestamptz, wait_event_type text, wait_event text, state text,"
                        + " backend_xid xid, backend_xmin xid, query_id int8, query text, backend_type text"),
                () -> {
                    List<Object[]> rows = new ArrayList<>();
                    for (PgSession.Backend b : session.backends()) {
                        rows.add(new Object[] {
                            b.datid(),
                            b.datname(),
                            b.pid(),
                            null,
                            PgOids.SUPERUSER,
                            b.usename(),
                            b.applicationName(),
                            b.clientAddr(),
                            null,
                            b.clientPort(),
                            b.backendStart(),
                            b.xactStart(),
                            b.queryStart(),
                            b.stateChange(),
                            null,
                            null,
                            b.state(),
                            null,
                            null,
                            null,
                            b.query(),
                            "client backend"
                        });
                    }
                    return rows;
                });
    }
}

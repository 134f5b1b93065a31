package io.tributary.connector.postgres;

import io.tributary.common.types.DataType;
import io.tributary.connector.Source;
import io.tributary.connector.SourceColumn;
import io.tributary.connector.SourceContractTest;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The connector contract against a real PostgreSQL table {@code (id int primary key, name text,
 * amount numeric(10,2))}: a subclass says what the table holds before the source is created, what
 * changes after it (streamed), and what changes while the server is "down".
 */
abstract class CdcContractTestBase extends SourceContractTest {
    private static final List<SourceColumn> COLUMNS = List.of(
            new SourceColumn("id", DataType.INTEGER),
            new SourceColumn("name", DataType.TEXT),
            new SourceColumn("amount", DataType.numeric(10, 2)));

    /** Distinct per subclass: it names the upstream table, the slot and the publication. */
    abstract int tableId();

    /** Statements run before the source is created: their rows come through the snapshot. */
    abstract List<String> beforeCreate();

    /** Statements run right after the source is created: their changes come through the stream. */
    abstract List<String> afterCreate();

    /** Statements run while the source is closed, between the checkpoint and the reopen. */
    abstract List<String> whileDownStatements();

    int snapshotChunkRows() {
        return 1024;
    }

    String table() {
        return "contract_" + tableId();
    }

    @BeforeEach
    void createUpstream() throws Exception {
        UpstreamPostgres.execute(
                "DROP TABLE IF EXISTS " + table(),
                "CREATE TABLE " + table() + " (id int PRIMARY KEY, name text, amount numeric(10,2))");
        UpstreamPostgres.execute(beforeCreate().toArray(String[]::new));
    }

    @AfterEach
    void dropUpstream() throws Exception {
        UpstreamPostgres.dropSlotAndPublication(table(), tableId());
        UpstreamPostgres.execute("DROP TABLE IF EXISTS " + table());
    }

    @Override
    protected Source open(byte[] identity) throws Exception {
        Source source = new PostgresCdcConnector(snapshotChunkRows())
                .open(UpstreamPostgres.context(
                        tableId(), COLUMNS, primaryKey(), UpstreamPostgres.options(table()), identity));
        if (identity == null) {
            UpstreamPostgres.execute(afterCreate().toArray(String[]::new));
        }
        return source;
    }

    @Override
    protected void whileDown() throws Exception {
        UpstreamPostgres.execute(whileDownStatements().toArray(String[]::new));
    }

    @Override
    protected int[] primaryKey() {
        return new int[] {0};
    }

    /** The upstream table's content, read with plain JDBC getters (not the connector's parsing). */
    @Override
    protected List<List<Object>> expectedRows() throws Exception {
        List<List<Object>> rows = new ArrayList<>();
        try (Connection c = UpstreamPostgres.connect();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT id, name, amount FROM " + table())) {
            while (rs.next()) {
                BigDecimal amount = rs.getBigDecimal(3);
                rows.add(Arrays.asList(rs.getInt(1), rs.getString(2), amount));
            }
        }
        return rows;
    }

    /** {@code INSERT ... SELECT} of rows {@code from..to} with names and amounts derived from the id. */
    String insertRange(int from, int to) {
        return "INSERT INTO " + table() + " SELECT g, 'row ' || g, g * 1.25 FROM generate_series(" + from + ", " + to
                + ") g";
    }
}

package io.tributary.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.tributary.meta.Database;
import io.tributary.server.pgwire.PgServer;
import io.tributary.server.session.EngineSessionFactory;
import io.tributary.sql.calcite.CalciteViewPlanner;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * RisingWave's Nexmark queries as materialized views over the {@code nexmark} connector's tables, each compared
 * with the same query run by PostgreSQL over a copy of the generated events (TUMBLE becomes {@code date_bin}, HOP
 * {@code date_bin} minus {@code generate_series} slides). The queries that cannot be expressed are listed in the
 * README with the reason.
 */
class NexmarkViewsDifferentialTest {
    private static final int EVENTS = 10_000;

    /** PostgreSQL's form of {@code HOP(bid, date_time, INTERVAL '2' SECOND, INTERVAL '10' SECOND)}. */
    private static final String PG_HOP_BID = "(SELECT bid.*, date_bin('2 seconds', date_time, TIMESTAMP '1970-01-01')"
            + " - i * INTERVAL '2 seconds' AS window_start FROM bid CROSS JOIN generate_series(0, 4) AS g(i))";

    private static final String PG_TUMBLE_START = "date_bin('10 seconds', date_time, TIMESTAMP '1970-01-01')";

    /** Query name: Tributary's query, PostgreSQL's, and the columns compared. */
    static final Map<String, String[]> QUERIES = new LinkedHashMap<>();

    static {
        q("q0", "SELECT auction, bidder, price, date_time FROM bid", null);
        q("q1", "SELECT auction, bidder, 0.908 * price AS price, date_time FROM bid", null);
        q(
                "q2",
                "SELECT auction, price FROM bid WHERE auction = 1007 OR auction = 1020 OR auction = 2001"
                        + " OR auction = 2019 OR auction = 2087",
                null);
        q(
                "q3",
                "SELECT P.name, P.city, P.state, A.id FROM auction AS A INNER JOIN person AS P ON A.seller = P.id"
                        + " WHERE A.category = 10 AND (P.state = 'or' OR P.state = 'id' OR P.state = 'ca')",
                null);
        q(
                "q4",
                "SELECT Q.category, AVG(Q.final) AS avg FROM (SELECT MAX(B.price) AS final, A.category"
                        + " FROM auction A, bid B WHERE A.id = B.auction AND B.date_time BETWEEN A.date_time AND A.expires"
                        + " GROUP BY A.id, A.category) Q GROUP BY Q.category",
                null);
        String q5 = "SELECT AuctionBids.auction, AuctionBids.num FROM (SELECT bid.auction, count(*) AS num,"
                + " window_start AS starttime FROM %1$s GROUP BY window_start, bid.auction) AS AuctionBids"
                + " JOIN (SELECT max(CountBids.num) AS maxn, CountBids.starttime_c FROM (SELECT count(*) AS num,"
                + " window_start AS starttime_c FROM %1$s GROUP BY bid.auction, window_start) AS CountBids"
                + " GROUP BY CountBids.starttime_c) AS MaxBids"
                + " ON AuctionBids.starttime = MaxBids.starttime_c AND AuctionBids.num >= MaxBids.maxn";
        q(
                "q5",
                q5.replace("%1$s", "HOP(bid, date_time, INTERVAL '2' SECOND, INTERVAL '10' SECOND)"),
                q5.replace("%1$s", PG_HOP_BID + " AS bid"));
        q(
                "q7",
                "SELECT B.auction, B.price, B.bidder, B.date_time FROM bid B JOIN (SELECT MAX(price) AS maxprice,"
                        + " window_end AS date_time FROM TUMBLE(bid, date_time, INTERVAL '10' SECOND)"
                        + " GROUP BY window_end) B1 ON B.price = B1.maxprice"
                        + " WHERE B.date_time BETWEEN B1.date_time - INTERVAL '10' SECOND AND B1.date_time",
                "SELECT B.auction, B.price, B.bidder, B.date_time FROM bid B JOIN (SELECT MAX(price) AS maxprice,"
                        + " " + PG_TUMBLE_START + " + INTERVAL '10 seconds' AS date_time FROM bid GROUP BY 2) B1"
                        + " ON B.price = B1.maxprice"
                        + " WHERE B.date_time BETWEEN B1.date_time - INTERVAL '10' SECOND AND B1.date_time");
        q(
                "q8",
                "SELECT P.id, P.name, P.starttime FROM (SELECT id, name, window_start AS starttime,"
                        + " window_end AS endtime FROM TUMBLE(person, date_time, INTERVAL '10' SECOND)"
                        + " GROUP BY id, name, window_start, window_end) P JOIN (SELECT seller,"
                        + " window_start AS starttime, window_end AS endtime"
                        + " FROM TUMBLE(auction, date_time, INTERVAL '10' SECOND)"
                        + " GROUP BY seller, window_start, window_end) A"
                        + " ON P.id = A.seller AND P.starttime = A.starttime AND P.endtime = A.endtime",
                "SELECT P.id, P.name, P.starttime FROM (SELECT id, name, " + PG_TUMBLE_START + " AS starttime"
                        + " FROM person GROUP BY 1, 2, 3) P JOIN (SELECT seller, " + PG_TUMBLE_START
                        + " AS starttime FROM auction GROUP BY 1, 2) A ON P.id = A.seller AND P.starttime = A.starttime");
        q(
                "q9",
                "SELECT id, item_name, description, initial_bid, reserve, date_time, expires, seller, category,"
                        + " auction, bidder, price, bid_date_time FROM (SELECT A.*, B.auction, B.bidder, B.price,"
                        + " B.date_time AS bid_date_time, ROW_NUMBER() OVER (PARTITION BY A.id"
                        + " ORDER BY B.price DESC, B.date_time ASC) AS rownum FROM auction A, bid B"
                        + " WHERE A.id = B.auction AND B.date_time BETWEEN A.date_time AND A.expires) X"
                        + " WHERE rownum <= 1",
                null);
        q(
                "q10",
                "SELECT auction, bidder, price, date_time, TO_CHAR(date_time, 'YYYY-MM-DD') AS \"date\","
                        + " TO_CHAR(date_time, 'HH:MI') AS \"time\" FROM bid",
                null);
        q(
                "q14",
                "SELECT auction, bidder, 0.908 * price AS price, CASE WHEN extract(hour FROM date_time) >= 8"
                        + " AND extract(hour FROM date_time) <= 18 THEN 'dayTime' WHEN extract(hour FROM date_time) <= 6"
                        + " OR extract(hour FROM date_time) >= 20 THEN 'nightTime' ELSE 'otherTime' END AS bidTimeType,"
                        + " date_time, extra, length(extra) - length(replace(extra, 'c', '')) AS c_counts FROM bid"
                        + " WHERE 0.908 * price > 1000000 AND 0.908 * price < 50000000",
                null);
        q(
                "q15",
                "SELECT to_char(date_time, 'YYYY-MM-DD') AS day, count(*) AS total_bids,"
                        + " count(*) FILTER (WHERE price < 10000) AS rank1_bids,"
                        + " count(*) FILTER (WHERE price >= 10000 AND price < 1000000) AS rank2_bids,"
                        + " count(*) FILTER (WHERE price >= 1000000) AS rank3_bids,"
                        + " count(DISTINCT bidder) AS total_bidders,"
                        + " count(DISTINCT bidder) FILTER (WHERE price < 10000) AS rank1_bidders,"
                        + " count(DISTINCT auction) AS total_auctions"
                        + " FROM bid GROUP BY to_char(date_time, 'YYYY-MM-DD')",
                null);
        q(
                "q16",
                "SELECT channel, to_char(date_time, 'YYYY-MM-DD') AS day, max(to_char(date_time, 'HH:MM')) AS minute,"
                        + " count(*) AS total_bids, count(*) FILTER (WHERE price < 10000) AS rank1_bids,"
                        + " count(DISTINCT bidder) AS total_bidders, count(DISTINCT auction) AS total_auctions"
                        + " FROM bid GROUP BY channel, to_char(date_time, 'YYYY-MM-DD')",
                null);
        q(
                "q17",
                "SELECT auction, to_char(date_time, 'YYYY-MM-DD') AS day, count(*) AS total_bids,"
                        + " count(*) FILTER (WHERE price < 10000) AS rank1_bids, min(price) AS min_price,"
                        + " max(price) AS max_price, avg(price) AS avg_price, sum(price) AS sum_price"
                        + " FROM bid GROUP BY auction, to_char(date_time, 'YYYY-MM-DD')",
                null);
        q(
                "q18",
                "SELECT auction, bidder, price, channel, url, date_time, extra FROM (SELECT *, ROW_NUMBER() OVER"
                        + " (PARTITION BY bidder, auction ORDER BY date_time DESC) AS rank_number FROM bid) X"
                        + " WHERE rank_number <= 1",
                null,
                // bids of one bidder on one auction may share a time: which of them row_number keeps is arbitrary
                "auction, bidder, date_time");
        q(
                "q19",
                "SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY auction"
                        + " ORDER BY price DESC) AS rank_number FROM bid) X WHERE rank_number <= 10",
                null,
                // bids of one auction may share a price: which of them row_number ranks first is arbitrary
                "auction, price, rank_number");
        q(
                "q20",
                "SELECT auction, bidder, price, channel, url, B.date_time AS date_timeB, item_name, description,"
                        + " initial_bid, reserve, A.date_time AS date_timeA, expires, seller, category"
                        + " FROM bid B INNER JOIN auction A ON B.auction = A.id WHERE A.category = 10",
                null);
        q(
                "q22",
                "SELECT auction, bidder, price, channel, split_part(url, '/', 4) AS dir1,"
                        + " split_part(url, '/', 5) AS dir2, split_part(url, '/', 6) AS dir3 FROM bid",
                null);
    }

    private static void q(String name, String tributary, String postgres) {
        q(name, tributary, postgres, "*");
    }

    /** @param compared the columns compared, where the query leaves the others' values to chance */
    private static void q(String name, String tributary, String postgres, String compared) {
        QUERIES.put(name, new String[] {tributary, postgres == null ? tributary : postgres, compared});
    }

    private static final String[][] TABLES = {
        {
            "person",
            "id BIGINT, name VARCHAR, email_address VARCHAR, credit_card VARCHAR, city VARCHAR, state VARCHAR,"
                    + " date_time TIMESTAMP, extra VARCHAR",
            "200"
        },
        {
            "auction",
            "id BIGINT, item_name VARCHAR, description VARCHAR, initial_bid BIGINT, reserve BIGINT,"
                    + " date_time TIMESTAMP, expires TIMESTAMP, seller BIGINT, category BIGINT, extra VARCHAR",
            "600"
        },
        {
            "bid",
            "auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR, date_time TIMESTAMP,"
                    + " extra VARCHAR",
            "9200"
        }
    };

    private static EmbeddedPostgres postgres;
    private static Connection pg;
    private static Path dataDir;
    private static Database db;
    private static PgServer server;
    private static Connection trib;

    @BeforeAll
    static void start() throws Exception {
        postgres = EmbeddedPostgres.builder().start();
        pg = postgres.getPostgresDatabase().getConnection();
        pg.setAutoCommit(true);
        dataDir = Files.createTempDirectory("nexmarkdiff-");
        db = Database.open(dataDir, 100, CalciteViewPlanner::new);
        server = new PgServer("127.0.0.1", 0, new EngineSessionFactory(db), null);
        server.start();
        Properties props = new Properties();
        props.setProperty("user", "root");
        props.setProperty("connectTimeout", "5");
        props.setProperty("socketTimeout", "120");
        trib = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + server.port() + "/dev", props);
        trib.setAutoCommit(true);
    }

    @AfterAll
    static void stop() {
        Cleanup.closeAll(trib, server, db, pg, postgres);
        Cleanup.deleteTree(dataDir);
    }

    @Test
    void nexmarkViewsMatchPostgres() throws Exception {
        // half the views follow the sources as they generate, half backfill over what they generated
        List<String> names = new ArrayList<>(QUERIES.keySet());
        for (String[] t : TABLES) {
            exec(
                    trib,
                    "CREATE TABLE " + t[0] + " (" + t[1] + ") WITH (connector = 'nexmark',"
                            + " nexmark.table.type = '" + t[0] + "', nexmark.event.num = '" + EVENTS + "',"
                            + " nexmark.split.num = '2')");
        }
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < names.size(); i += 2) {
            create(names.get(i), failures);
        }
        for (String[] t : TABLES) {
            awaitRows(t[0], Long.parseLong(t[2]));
        }
        for (int i = 1; i < names.size(); i += 2) {
            create(names.get(i), failures);
        }
        for (String[] t : TABLES) {
            copyToPostgres(t[0], t[1]);
        }
        for (String name : names) {
            if (failures.stream().anyMatch(f -> f.startsWith(name + ":"))) {
                continue;
            }
            String[] q = QUERIES.get(name);
            boolean approx = q[0].contains("AVG(") || q[0].contains("avg(");
            String diff = ViewResults.difference(
                    ViewResults.read(pg, "SELECT " + q[2] + " FROM (" + q[1] + ") x"),
                    ViewResults.read(trib, "SELECT " + q[2] + " FROM " + name),
                    approx);
            if (diff != null) {
                failures.add(name + ": " + diff);
            }
        }
        if (!failures.isEmpty()) {
            fail(String.join("\n", failures));
        }
    }

    private static void create(String name, List<String> failures) {
        try {
            exec(trib, "CREATE MATERIALIZED VIEW " + name + " AS " + QUERIES.get(name)[0]);
        } catch (SQLException e) {
            failures.add(name + ": CREATE failed: " + e.getSQLState() + " " + e.getMessage());
        }
    }

    private static void awaitRows(String table, long expected) throws Exception {
        long deadline = System.nanoTime() + 120_000_000_000L;
        long count = -1;
        while (System.nanoTime() < deadline) {
            try (Statement st = trib.createStatement();
                    ResultSet rs = st.executeQuery("SELECT count(*) FROM " + table)) {
                rs.next();
                count = rs.getLong(1);
            }
            if (count == expected) {
                return;
            }
            Thread.sleep(100);
        }
        assertEquals(expected, count, "rows generated into " + table);
    }

    /** Copies every row of {@code table} from Tributary into a table of the same columns on PostgreSQL. */
    private static void copyToPostgres(String table, String columns) throws SQLException {
        exec(pg, "CREATE TABLE " + table + " (" + columns + ")");
        String[] defs = columns.split(",");
        StringBuilder insert = new StringBuilder("INSERT INTO " + table + " VALUES (");
        for (int i = 0; i < defs.length; i++) {
            String type = defs[i].trim().split(" ")[1];
            insert.append(i == 0 ? "" : ", ").append("?::").append(type);
        }
        insert.append(")");
        try (Statement st = trib.createStatement();
                ResultSet rs = st.executeQuery("SELECT * FROM " + table);
                PreparedStatement ps = pg.prepareStatement(insert.toString())) {
            int n = 0;
            while (rs.next()) {
                for (int i = 1; i <= defs.length; i++) {
                    ps.setString(i, rs.getString(i));
                }
                ps.addBatch();
                if (++n % 1000 == 0) {
                    ps.executeBatch();
                }
            }
            ps.executeBatch();
        }
    }

    private static void exec(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }
}

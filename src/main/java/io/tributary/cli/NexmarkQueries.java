package io.tributary.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * RisingWave's Nexmark queries as Tributary runs them, by name ({@code q0} ...), over the tables
 * {@link #TABLES} creates. Departures from RisingWave's text: column labels that are Calcite keywords
 * are quoted ({@code "date"}, {@code "time"} in q10); to_char patterns are upper case (written when
 * Calcite's to_char formatted only those; PostgreSQL's, now Tributary's, reads either case); q14 counts 'c' with length/replace instead of RisingWave's UDF; q11 is
 * Flink's text (group-window SESSION), which RisingWave's query set lacks. The bid relation has
 * RisingWave's processing-time column {@code p_time TIMESTAMPTZ AS PROCTIME()} (q12 windows by it;
 * q13 joins with {@code side_input}, which {@link #SETUP} creates).
 * Missing: q6 (not valid SQL as published).
 */
public final class NexmarkQueries {
    private NexmarkQueries() {}

    /** The three source tables' columns, by table name, in creation order. */
    public static final Map<String, String> TABLES = Map.of(
            "person",
            "id BIGINT, name VARCHAR, email_address VARCHAR, credit_card VARCHAR, city VARCHAR, state VARCHAR,"
                    + " date_time TIMESTAMP, extra VARCHAR",
            "auction",
            "id BIGINT, item_name VARCHAR, description VARCHAR, initial_bid BIGINT, reserve BIGINT,"
                    + " date_time TIMESTAMP, expires TIMESTAMP, seller BIGINT, category BIGINT, extra VARCHAR",
            "bid",
            "auction BIGINT, bidder BIGINT, price BIGINT, channel VARCHAR, url VARCHAR, date_time TIMESTAMP,"
                    + " extra VARCHAR, p_time TIMESTAMPTZ AS PROCTIME()");

    /**
     * Statements a query needs run before its view is created, by query name: q13's side input, a table
     * of 10,000 keys as RisingWave's benchmark fills it.
     */
    public static final Map<String, List<String>> SETUP = Map.of(
            "q13",
            List.of(
                    "CREATE TABLE side_input (key BIGINT PRIMARY KEY, value VARCHAR)",
                    "INSERT INTO side_input SELECT v, v::varchar FROM generate_series(0, 9999) AS t(v)"));

    /** {@code CREATE TABLE} of a Nexmark table generating its share of {@code events} events over {@code splits}. */
    public static String createTable(String table, long events, int splits) {
        return create("TABLE", table, events, splits);
    }

    /**
     * Like {@link #createTable}, as a source (CREATE SOURCE): the events are not stored, only passed on to
     * the views over it, as RisingWave's published Nexmark runs read them.
     */
    public static String createSource(String table, long events, int splits) {
        return create("SOURCE", table, events, splits);
    }

    private static String create(String kind, String table, long events, int splits) {
        return "CREATE " + kind + " " + table + " (" + TABLES.get(table) + ") WITH (connector = 'nexmark',"
                + " nexmark.table.type = '" + table + "', nexmark.event.num = '" + events + "',"
                + " nexmark.split.num = '" + splits + "')";
    }

    /** Query name to query, q0 first. */
    public static final Map<String, String> QUERIES = new LinkedHashMap<>();

    static {
        QUERIES.put("q0", "SELECT auction, bidder, price, date_time FROM bid");
        QUERIES.put("q1", "SELECT auction, bidder, 0.908 * price AS price, date_time FROM bid");
        QUERIES.put(
                "q2",
                "SELECT auction, price FROM bid WHERE auction = 1007 OR auction = 1020 OR auction = 2001"
                        + " OR auction = 2019 OR auction = 2087");
        QUERIES.put(
                "q3",
                "SELECT P.name, P.city, P.state, A.id FROM auction AS A INNER JOIN person AS P ON A.seller = P.id"
                        + " WHERE A.category = 10 AND (P.state = 'or' OR P.state = 'id' OR P.state = 'ca')");
        QUERIES.put(
                "q4",
                "SELECT Q.category, AVG(Q.final) AS avg FROM (SELECT MAX(B.price) AS final, A.category"
                        + " FROM auction A, bid B WHERE A.id = B.auction AND B.date_time BETWEEN A.date_time AND A.expires"
                        + " GROUP BY A.id, A.category) Q GROUP BY Q.category");
        QUERIES.put("q5", q5("HOP(bid, date_time, INTERVAL '2' SECOND, INTERVAL '10' SECOND)"));
        QUERIES.put(
                "q7",
                "SELECT B.auction, B.price, B.bidder, B.date_time FROM bid B JOIN (SELECT MAX(price) AS maxprice,"
                        + " window_end AS date_time FROM TUMBLE(bid, date_time, INTERVAL '10' SECOND)"
                        + " GROUP BY window_end) B1 ON B.price = B1.maxprice"
                        + " WHERE B.date_time BETWEEN B1.date_time - INTERVAL '10' SECOND AND B1.date_time");
        QUERIES.put(
                "q8",
                "SELECT P.id, P.name, P.starttime FROM (SELECT id, name, window_start AS starttime,"
                        + " window_end AS endtime FROM TUMBLE(person, date_time, INTERVAL '10' SECOND)"
                        + " GROUP BY id, name, window_start, window_end) P JOIN (SELECT seller,"
                        + " window_start AS starttime, window_end AS endtime"
                        + " FROM TUMBLE(auction, date_time, INTERVAL '10' SECOND)"
                        + " GROUP BY seller, window_start, window_end) A"
                        + " ON P.id = A.seller AND P.starttime = A.starttime AND P.endtime = A.endtime");
        QUERIES.put(
                "q9",
                "SELECT id, item_name, description, initial_bid, reserve, date_time, expires, seller, category,"
                        + " auction, bidder, price, bid_date_time FROM (SELECT A.*, B.auction, B.bidder, B.price,"
                        + " B.date_time AS bid_date_time, ROW_NUMBER() OVER (PARTITION BY A.id"
                        + " ORDER BY B.price DESC, B.date_time ASC) AS rownum FROM auction A, bid B"
                        + " WHERE A.id = B.auction AND B.date_time BETWEEN A.date_time AND A.expires) X"
                        + " WHERE rownum <= 1");
        QUERIES.put(
                "q10",
                "SELECT auction, bidder, price, date_time, TO_CHAR(date_time, 'YYYY-MM-DD') AS \"date\","
                        + " TO_CHAR(date_time, 'HH:MI') AS \"time\" FROM bid");
        QUERIES.put(
                "q11",
                "SELECT B.bidder, count(*) AS bid_count, SESSION_START(B.date_time, INTERVAL '10' SECOND) AS starttime,"
                        + " SESSION_END(B.date_time, INTERVAL '10' SECOND) AS endtime FROM bid B"
                        + " GROUP BY B.bidder, SESSION(B.date_time, INTERVAL '10' SECOND)");
        QUERIES.put(
                "q12",
                "SELECT bidder, count(*) AS bid_count, window_start, window_end"
                        + " FROM TUMBLE(bid, p_time, INTERVAL '10' SECOND) GROUP BY bidder, window_start, window_end");
        QUERIES.put(
                "q13",
                "SELECT B.auction, B.bidder, B.price, B.date_time, S.value FROM bid B"
                        + " JOIN side_input FOR SYSTEM_TIME AS OF PROCTIME() S ON mod(B.auction, 10000) = S.key");
        QUERIES.put(
                "q14",
                "SELECT auction, bidder, 0.908 * price AS price, CASE WHEN extract(hour FROM date_time) >= 8"
                        + " AND extract(hour FROM date_time) <= 18 THEN 'dayTime' WHEN extract(hour FROM date_time) <= 6"
                        + " OR extract(hour FROM date_time) >= 20 THEN 'nightTime' ELSE 'otherTime' END AS bidTimeType,"
                        + " date_time, extra, length(extra) - length(replace(extra, 'c', '')) AS c_counts FROM bid"
                        + " WHERE 0.908 * price > 1000000 AND 0.908 * price < 50000000");
        QUERIES.put(
                "q15",
                "SELECT to_char(date_time, 'YYYY-MM-DD') AS day, count(*) AS total_bids,"
                        + " count(*) FILTER (WHERE price < 10000) AS rank1_bids,"
                        + " count(*) FILTER (WHERE price >= 10000 AND price < 1000000) AS rank2_bids,"
                        + " count(*) FILTER (WHERE price >= 1000000) AS rank3_bids,"
                        + " count(DISTINCT bidder) AS total_bidders,"
                        + " count(DISTINCT bidder) FILTER (WHERE price < 10000) AS rank1_bidders,"
                        + " count(DISTINCT auction) AS total_auctions"
                        + " FROM bid GROUP BY to_char(date_time, 'YYYY-MM-DD')");
        QUERIES.put(
                "q16",
                "SELECT channel, to_char(date_time, 'YYYY-MM-DD') AS day, max(to_char(date_time, 'HH:MM')) AS minute,"
                        + " count(*) AS total_bids, count(*) FILTER (WHERE price < 10000) AS rank1_bids,"
                        + " count(DISTINCT bidder) AS total_bidders, count(DISTINCT auction) AS total_auctions"
                        + " FROM bid GROUP BY channel, to_char(date_time, 'YYYY-MM-DD')");
        QUERIES.put(
                "q17",
                "SELECT auction, to_char(date_time, 'YYYY-MM-DD') AS day, count(*) AS total_bids,"
                        + " count(*) FILTER (WHERE price < 10000) AS rank1_bids, min(price) AS min_price,"
                        + " max(price) AS max_price, avg(price) AS avg_price, sum(price) AS sum_price"
                        + " FROM bid GROUP BY auction, to_char(date_time, 'YYYY-MM-DD')");
        QUERIES.put(
                "q18",
                "SELECT auction, bidder, price, channel, url, date_time, extra FROM (SELECT *, ROW_NUMBER() OVER"
                        + " (PARTITION BY bidder, auction ORDER BY date_time DESC) AS rank_number FROM bid) X"
                        + " WHERE rank_number <= 1");
        QUERIES.put(
                "q19",
                "SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY auction"
                        + " ORDER BY price DESC) AS rank_number FROM bid) X WHERE rank_number <= 10");
        QUERIES.put(
                "q20",
                "SELECT auction, bidder, price, channel, url, B.date_time AS date_timeB, item_name, description,"
                        + " initial_bid, reserve, A.date_time AS date_timeA, expires, seller, category"
                        + " FROM bid B INNER JOIN auction A ON B.auction = A.id WHERE A.category = 10");
        QUERIES.put(
                "q21",
                "SELECT auction, bidder, price, channel, CASE WHEN lower(channel) = 'apple' THEN '0'"
                        + " WHEN lower(channel) = 'google' THEN '1' WHEN lower(channel) = 'facebook' THEN '2'"
                        + " WHEN lower(channel) = 'baidu' THEN '3'"
                        + " ELSE (regexp_match(url, '(&|^)channel_id=([^&]*)'))[2] END AS channel_id FROM bid"
                        + " WHERE (regexp_match(url, '(&|^)channel_id=([^&]*)'))[2] IS NOT NULL"
                        + " OR lower(channel) IN ('apple', 'google', 'facebook', 'baidu')");
        QUERIES.put(
                "q22",
                "SELECT auction, bidder, price, channel, split_part(url, '/', 4) AS dir1,"
                        + " split_part(url, '/', 5) AS dir2, split_part(url, '/', 6) AS dir3 FROM bid");
    }

    /** q5 over {@code hopped}, the bids in their hopping windows (a relation named bid with window_start). */
    public static String q5(String hopped) {
        return "SELECT AuctionBids.auction, AuctionBids.num FROM (SELECT bid.auction, count(*) AS num,"
                + " window_start AS starttime FROM " + hopped + " GROUP BY window_start, bid.auction) AS AuctionBids"
                + " JOIN (SELECT max(CountBids.num) AS maxn, CountBids.starttime_c FROM (SELECT count(*) AS num,"
                + " window_start AS starttime_c FROM " + hopped + " GROUP BY bid.auction, window_start) AS CountBids"
                + " GROUP BY CountBids.starttime_c) AS MaxBids"
                + " ON AuctionBids.starttime = MaxBids.starttime_c AND AuctionBids.num >= MaxBids.maxn";
    }
}

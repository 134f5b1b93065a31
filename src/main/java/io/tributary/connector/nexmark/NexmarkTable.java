package io.tributary.connector.nexmark;

import io.tributary.common.types.DataType;
import io.tributary.connector.SourceColumn;
import java.util.List;

/**
 * The three Nexmark tables, their columns, and which event numbers are theirs: in every run of
 * {@value #EVENTS_PER_CYCLE} events the first {@code 1} is a person, the next {@code 3} are
 * auctions and the last {@code 46} are bids.
 */
enum NexmarkTable {
    PERSON(
            0,
            1,
            List.of(
                    new SourceColumn("id", DataType.BIGINT),
                    new SourceColumn("name", DataType.VARCHAR),
                    new SourceColumn("email_address", DataType.VARCHAR),
                    new SourceColumn("credit_card", DataType.VARCHAR),
                    new SourceColumn("city", DataType.VARCHAR),
                    new SourceColumn("state", DataType.VARCHAR),
                    new SourceColumn("date_time", DataType.TIMESTAMP),
                    new SourceColumn("extra", DataType.VARCHAR))),
    AUCTION(
            1,
            3,
            List.of(
                    new SourceColumn("id", DataType.BIGINT),
                    new SourceColumn("item_name", DataType.VARCHAR),
                    new SourceColumn("description", DataType.VARCHAR),
                    new SourceColumn("initial_bid", DataType.BIGINT),
                    new SourceColumn("reserve", DataType.BIGINT),
                    new SourceColumn("date_time", DataType.TIMESTAMP),
                    new SourceColumn("expires", DataType.TIMESTAMP),
                    new SourceColumn("seller", DataType.BIGINT),
                    new SourceColumn("category", DataType.BIGINT),
                    new SourceColumn("extra", DataType.VARCHAR))),
    BID(
            4,
            46,
            List.of(
                    new SourceColumn("auction", DataType.BIGINT),
                    new SourceColumn("bidder", DataType.BIGINT),
                    new SourceColumn("price", DataType.BIGINT),
                    new SourceColumn("channel", DataType.VARCHAR),
                    new SourceColumn("url", DataType.VARCHAR),
                    new SourceColumn("date_time", DataType.TIMESTAMP),
                    new SourceColumn("extra", DataType.VARCHAR)));

    static final int EVENTS_PER_CYCLE = 50;

    /** The first offset within a cycle that belongs to this table. */
    final int first;
    /** How many events of a cycle belong to this table. */
    final int proportion;

    final List<SourceColumn> columns;

    NexmarkTable(int first, int proportion, List<SourceColumn> columns) {
        this.first = first;
        this.proportion = proportion;
        this.columns = columns;
    }

    /** The event number of this table's {@code k}-th event (0-based). */
    long eventNumber(long k) {
        return k / proportion * EVENTS_PER_CYCLE + first + k % proportion;
    }

    /** How many of this table's events come before event number {@code n}. */
    long eventsBefore(long n) {
        long inCycle = Math.min(Math.max(n % EVENTS_PER_CYCLE - first, 0), proportion);
        return n / EVENTS_PER_CYCLE * proportion + inCycle;
    }

    /** The table type's name in {@code nexmark.table.type}. */
    String optionValue() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}

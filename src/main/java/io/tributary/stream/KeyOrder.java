package io.tributary.stream;

/**
 * How one key column of a {@link StateTable} sorts. {@link #DEFAULT} (ascending, NULL first) is
 * the plain memcomparable order that tables and views use.
 */
public record KeyOrder(boolean descending, boolean nullsFirst) {
    public static final KeyOrder DEFAULT = new KeyOrder(false, true);
}

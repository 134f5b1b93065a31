package io.tributary.connector;

/**
 * Input a reader skipped because it could not be read as a row.
 *
 * @param location where it was, e.g. {@code orders-2.csv:17}
 * @param reason why it was skipped, for a person
 */
public record SkippedInput(String location, String reason) {}

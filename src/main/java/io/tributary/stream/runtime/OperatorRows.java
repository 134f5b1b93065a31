package io.tributary.stream.runtime;

/**
 * The rows one operator of a running view took in and gave out since its job started, summed over
 * the operator's parallel instances. Numbering follows the view's plan graph (pre-order, exchanges
 * left out; fragments numbered as EXPLAIN numbers them). A source counts the rows it read from its
 * upstream as both in and out; a join or union counts the rows of all of its inputs as in.
 *
 * @param node the operator's number in the plan graph
 * @param fragment the fragment running it
 * @param operator e.g. {@code StreamFilter}
 */
public record OperatorRows(int node, int fragment, String operator, long rowsIn, long rowsOut) {}

package io.tributary.stream.operators;

/**
 * The running state of one aggregate call over one group, exact under retraction: every value
 * added with sign +1 can be taken out again with sign -1. Created and used only by the actor thread
 * of its {@link HashAggOperator}.
 */
interface Accumulator {
    /**
     * Counts {@code value} in (sign +1) or out (sign -1). {@code value} is never null, except for
     * {@code COUNT(*)} which has no argument; the caller has already applied the call's filter and,
     * for calls that keep their values, fed only values whose presence in the group changed.
     */
    void add(Object value, int sign);

    /** The aggregate over what was added: a canonical value of the call's result type, or null. */
    Object result();

    /** Writes this state into {@code row} from column {@code at}, in the layout of {@link AggFunction#stateTypes()}. */
    void save(Object[] row, int at);
}

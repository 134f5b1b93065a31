package io.tributary.stream.operators;

/**
 * A group a {@link HashAggOperator} holds in memory, whether it changed in the current epoch ({@code touched}), and its
 * output row as of the previous barrier ({@code lastOutput}, null when it had none): the row a
 * change retracts, kept rather than computed again at each epoch that touches the group. The
 * group is replaced when it vanishes and comes back within the epoch.
 */
final class HeldGroup {
    GroupState group;
    boolean touched;
    Object[] lastOutput;
    /** Whether the cleaning index holds this group (only with {@link HashAggOperator}'s window cleaning). */
    boolean indexed;
    /**
     * Per call, the MIN/MAX argument values this group took in since the barrier (null until
     * the first); see {@link ExtremeValues#add}.
     */
    PendingValues[] pending;
    /**
     * Per call, every MIN/MAX argument value the group holds, or null (for that call or all):
     * only groups first held without rows get them, and a group gives them up when it holds
     * too many; see {@link ExtremeValues#writeHeld}.
     */
    HeldValues[] values;

    HeldGroup(GroupState group, Object[] lastOutput) {
        this.group = group;
        this.lastOutput = lastOutput;
    }
}

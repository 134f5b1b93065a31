package io.tributary.stream.runtime;

import io.tributary.common.VirtualNodes;

/**
 * Which of a fragment's {@code parallelism} actors owns each vnode: contiguous, near-equal ranges,
 * so changing the parallelism moves as few vnodes as possible. Immutable.
 */
final class VnodeMapping {
    private final int parallelism;

    VnodeMapping(int parallelism) {
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism must be at least 1");
        }
        this.parallelism = parallelism;
    }

    int parallelism() {
        return parallelism;
    }

    int owner(int vnode) {
        return vnode * parallelism / VirtualNodes.COUNT;
    }

    /** Vnodes owned by actor {@code index}, ascending. */
    int[] owned(int index) {
        return java.util.stream.IntStream.range(0, VirtualNodes.COUNT)
                .filter(v -> owner(v) == index)
                .toArray();
    }
}

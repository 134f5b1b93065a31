package io.tributary.sql.calcite;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Maps character offsets of a statement's rewritten text back to the client's text, so an error
 * found in the text Calcite parsed points at the client's token. {@link PgSyntaxText} and {@link
 * ParameterRewriter} change a statement's text in a few local places (an interval constant in
 * Calcite's spelling, a quoted keyword), some of them changing its length; the two texts are
 * aligned by a shortest edit script (Myers' diff of characters), so an offset in text both share
 * maps exactly and an offset inside a rewritten piece maps to where that piece starts in the
 * client's text. Built only when an error is reported; immutable.
 */
final class TextShifts {
    /**
     * The most edited characters aligned: beyond it (a long statement rewritten in many places)
     * offsets past the first difference are unknown, rather than costing time and memory on the
     * error path.
     */
    private static final int MAX_EDITS = 512;

    /** For each offset of the rewritten text (and its end), the client's offset; -1 when unknown. */
    private final int[] toClient;

    private TextShifts(int[] toClient) {
        this.toClient = toClient;
    }

    /** The alignment of {@code rewritten} with {@code client}, the text it was rewritten from. */
    static TextShifts between(String client, String rewritten) {
        int n = client.length();
        int m = rewritten.length();
        int[] toClient = new int[m + 1];
        int prefix = 0;
        while (prefix < n && prefix < m && client.charAt(prefix) == rewritten.charAt(prefix)) {
            prefix++;
        }
        if (prefix == n && n == m) {
            for (int j = 0; j <= m; j++) {
                toClient[j] = j;
            }
            return new TextShifts(toClient);
        }
        Arrays.fill(toClient, -1);
        List<int[]> trace = forward(client, rewritten);
        if (trace == null) {
            for (int j = 0; j <= prefix; j++) {
                toClient[j] = j;
            }
            return new TextShifts(toClient);
        }
        backtrack(trace, n, m, toClient);
        toClient[m] = n;
        return new TextShifts(toClient);
    }

    /**
     * The 1-based client offset of the 1-based {@code offset} into the rewritten text; 0 when it is
     * 0 (unknown) or cannot be mapped.
     */
    int toClient(int offset) {
        if (offset <= 0 || offset > toClient.length) {
            return 0;
        }
        int mapped = toClient[offset - 1];
        return mapped < 0 ? 0 : mapped + 1;
    }

    /**
     * Myers' forward pass: for each number of edits d, the furthest client offset reached on each
     * diagonal k (rewritten offset = client offset - k) before step d, offset by d. Null beyond
     * {@link #MAX_EDITS}.
     */
    private static List<int[]> forward(String a, String b) {
        int n = a.length();
        int m = b.length();
        int max = Math.min(n + m, MAX_EDITS);
        int[] v = new int[2 * max + 3];
        int off = max + 1;
        List<int[]> trace = new ArrayList<>();
        for (int d = 0; d <= max; d++) {
            trace.add(Arrays.copyOfRange(v, off - d - 1, off + d + 2));
            for (int k = -d; k <= d; k += 2) {
                int x = k == -d || (k != d && v[off + k - 1] < v[off + k + 1]) ? v[off + k + 1] : v[off + k - 1] + 1;
                int y = x - k;
                while (x < n && y < m && a.charAt(x) == b.charAt(y)) {
                    x++;
                    y++;
                }
                v[off + k] = x;
                if (x >= n && y >= m) {
                    return trace;
                }
            }
        }
        return null;
    }

    /** Walks the edit script back from the end, recording where each rewritten character came from. */
    private static void backtrack(List<int[]> trace, int n, int m, int[] toClient) {
        int x = n;
        int y = m;
        for (int d = trace.size() - 1; d >= 0; d--) {
            int[] v = trace.get(d);
            // v holds diagonals -d-1 .. d+1 at indexes 0 .. 2d+2
            int k = x - y;
            int prevX;
            int prevY;
            if (d == 0) {
                prevX = 0;
                prevY = 0;
            } else {
                boolean down = k == -d || (k != d && v[k - 1 + d + 1] < v[k + 1 + d + 1]);
                int prevK = down ? k + 1 : k - 1;
                prevX = v[prevK + d + 1];
                prevY = prevX - prevK;
            }
            while (x > prevX && y > prevY && x > 0 && y > 0) {
                x--;
                y--;
                toClient[y] = x;
            }
            if (d > 0) {
                if (x == prevX && y > prevY) {
                    // a character only the rewritten text has: it stands where the client's text is now
                    toClient[prevY] = prevX;
                }
                x = prevX;
                y = prevY;
            }
        }
    }
}

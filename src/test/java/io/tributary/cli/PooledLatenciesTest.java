package io.tributary.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PooledLatenciesTest {
    @Test
    void p99RestsOnEveryRoundOfAKind() {
        PooledLatencies pooled = new PooledLatencies();
        double[] quiet = new double[99];
        java.util.Arrays.fill(quiet, 1.0);
        double[] burst = new double[101];
        java.util.Arrays.fill(burst, 1.0);
        java.util.Arrays.fill(burst, 97, 101, 9.0);
        pooled.add("idle", quiet);
        pooled.add("idle", burst);
        // alone, the burst round's p99 is 9 ms; pooled with one quiet round too (4 slow of 200)
        assertEquals(9.0, Percentiles.of(burst, 99));
        assertEquals(9.0, pooled.p99("idle"));
        assertEquals(200, pooled.samples("idle"));
        pooled.add("idle", quiet);
        pooled.add("idle", quiet);
        pooled.add("idle", quiet);
        // 4 slow of 497: the p99 is the quiet rounds' again
        assertEquals(1.0, pooled.p99("idle"));
    }

    @Test
    void kindsStayApartAndAnUnknownKindHasNoFigure() {
        PooledLatencies pooled = new PooledLatencies();
        pooled.add("idle", new double[] {1, 2, 3});
        pooled.add("remote1", new double[] {7});
        assertEquals(3.0, pooled.p99("idle"));
        assertEquals(7.0, pooled.p99("remote1"));
        assertTrue(Double.isNaN(pooled.p99("remote2")));
        assertEquals(0, pooled.samples("remote2"));
    }

    @Test
    void addingCopiesSoTheCallersArrayMayChange() {
        PooledLatencies pooled = new PooledLatencies();
        double[] round = {1, 1, 1};
        pooled.add("local", round);
        round[0] = 50;
        assertEquals(1.0, pooled.p99("local"));
    }
}

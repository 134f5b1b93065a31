package io.tributary.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tributary.common.types.DataType;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlanFingerprintTest {
    private static final Field ID = new Field("id", DataType.BIGINT);
    private static final Field K = new Field("k", DataType.INTEGER);

    private static MaterializeNode join(JoinKind kind, boolean nullSafe, int limit) {
        StreamNode a = new ExchangeNode(new SourceNode(1, "a", List.of(ID, K), new int[] {0}), Distribution.hash(1));
        StreamNode b = new ExchangeNode(new SourceNode(2, "b", List.of(ID, K), new int[] {0}), Distribution.hash(1));
        HashJoinNode join = new HashJoinNode(
                a,
                b,
                kind,
                new int[] {1},
                new int[] {1},
                new boolean[] {nullSafe},
                null,
                List.of(ID, K, ID, K),
                new int[] {0, 2});
        StreamNode top = new TopNNode(
                new ExchangeNode(join, Distribution.SINGLE), List.of(new SortKey(0, true, false)), 0, limit);
        return new MaterializeNode(top, 9, "m");
    }

    @Test
    void equalPlansBuiltApartHaveEqualFingerprints() {
        assertEquals(
                PlanFingerprint.of(join(JoinKind.INNER, false, 10)),
                PlanFingerprint.of(join(JoinKind.INNER, false, 10)));
    }

    @Test
    void everyComponentCounts() {
        String base = PlanFingerprint.of(join(JoinKind.INNER, false, 10));
        assertNotEquals(base, PlanFingerprint.of(join(JoinKind.LEFT, false, 10)));
        assertNotEquals(base, PlanFingerprint.of(join(JoinKind.INNER, true, 10)), "a boolean[] component");
        assertNotEquals(base, PlanFingerprint.of(join(JoinKind.INNER, false, 11)));
    }

    @Test
    void arraysAreWrittenByValueAndTypesByName() {
        String text = PlanFingerprint.of(join(JoinKind.INNER, false, 10));
        assertFalse(text.contains("[Z@") || text.contains("[I@"), text);
        assertTrue(text.contains("nullSafe=[false]"), text);
        assertTrue(text.contains("Field(name=id, type=bigint)"), text);
    }

    @Test
    void aComponentAddedLaterIsLeftOutWhileNullSoStoredFingerprintsStillMatch() {
        SourceNode source = new SourceNode(1, "a", List.of(ID, K), new int[] {0});
        List<AggCall> calls = List.of(new AggCall(AggKind.COUNT, -1, false, -1, DataType.BIGINT));
        List<Field> fields = List.of(K, new Field("c", DataType.BIGINT));
        String uncleaned =
                PlanFingerprint.of(new MaterializeNode(new HashAggNode(source, new int[] {1}, calls, fields), 9, "m"));
        // the form builds before the window-cleaning component stored, which restarts compare against
        assertTrue(uncleaned.contains("HashAggNode(input=SourceNode(relationId=1"), uncleaned);
        assertTrue(uncleaned.endsWith("type=bigint)]), relationId=9, relationName=m)"), uncleaned);
        assertFalse(uncleaned.contains("cleaning"), uncleaned);
        String cleaned = PlanFingerprint.of(new MaterializeNode(
                new HashAggNode(source, new int[] {1}, calls, fields, new WindowCleaning(0, 1, 5_000_000L, false)),
                9,
                "m"));
        assertTrue(cleaned.contains("cleaning=WindowCleaning(keyIndex=0, relationId=1, lagMicros=5000000"), cleaned);
    }

    @Test
    void aStoredFingerprintWithoutALaterCleaningComponentStillMatchesButNoOtherDoes() {
        SourceNode source = new SourceNode(1, "a", List.of(ID, K), new int[] {0});
        List<AggCall> calls = List.of(new AggCall(AggKind.COUNT, -1, false, -1, DataType.BIGINT));
        List<Field> fields = List.of(K, new Field("c", DataType.BIGINT));
        WindowCleaning cleaning = new WindowCleaning(0, 1, 5_000_000L, false);
        HashAggNode innerPlain = new HashAggNode(source, new int[] {1}, calls, fields);
        HashAggNode innerCleaned = new HashAggNode(source, new int[] {1}, calls, fields, cleaning);
        MaterializeNode bothCleaned =
                new MaterializeNode(new HashAggNode(innerCleaned, new int[] {0}, calls, fields, cleaning), 9, "m");
        // an older build cleaned only the inner aggregate, or neither
        String innerOnly = PlanFingerprint.of(
                new MaterializeNode(new HashAggNode(innerCleaned, new int[] {0}, calls, fields), 9, "m"));
        String neither = PlanFingerprint.of(
                new MaterializeNode(new HashAggNode(innerPlain, new int[] {0}, calls, fields), 9, "m"));
        assertTrue(PlanFingerprint.matches(PlanFingerprint.of(bothCleaned), bothCleaned));
        assertTrue(PlanFingerprint.matches(innerOnly, bothCleaned));
        assertTrue(PlanFingerprint.matches(neither, bothCleaned));
        // a plan that no longer cleans what was stored cleaned, or differs anywhere else, does not match
        MaterializeNode neitherCleaned =
                new MaterializeNode(new HashAggNode(innerPlain, new int[] {0}, calls, fields), 9, "m");
        assertFalse(PlanFingerprint.matches(innerOnly, neitherCleaned));
        MaterializeNode otherKey =
                new MaterializeNode(new HashAggNode(innerCleaned, new int[] {1}, calls, fields, cleaning), 9, "m");
        assertFalse(PlanFingerprint.matches(innerOnly, otherKey));
        assertFalse(PlanFingerprint.matches(neither.replace("relationId=9", "relationId=8"), bothCleaned));
    }
}

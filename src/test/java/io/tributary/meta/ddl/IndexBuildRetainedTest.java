package io.tributary.meta.ddl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * What an index build keeps per row changed while it runs (up to {@code ChangedKeyWatch.MAX_KEYS}
 * of them): the row's primary key and its entry keys then and now, never the row, whose width
 * (a wide text column, say) the build's memory must not depend on.
 */
class IndexBuildRetainedTest {
    @Test
    void aChangedRowKeepsItsKeysAndNotTheRow() {
        Map<String, Class<?>> kept = new TreeMap<>();
        for (Field f : IndexBuild.Changed.class.getDeclaredFields()) {
            if (!Modifier.isStatic(f.getModifiers())) {
                kept.put(f.getName(), f.getType());
            }
        }
        assertEquals(
                Map.of(
                        "pk", byte[].class,
                        "thenKey", byte[].class,
                        "nowKey", byte[].class,
                        "nowExclusive", boolean.class,
                        "nowInSnapshot", boolean.class),
                kept);
    }
}

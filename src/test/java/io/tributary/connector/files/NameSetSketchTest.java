package io.tributary.connector.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class NameSetSketchTest {
    private static List<String> names(int from, int to) {
        List<String> out = new ArrayList<>();
        for (int i = from; i < to; i++) {
            out.add("f-" + i + ".csv");
        }
        return out;
    }

    @Test
    void recoversUpToEightAddedNames() {
        NameSetSketch sketch = NameSetSketch.of(names(0, 3000));
        for (int added = 0; added <= NameSetSketch.SUMS; added++) {
            List<String> present = names(0, 3000);
            List<String> extra = names(5000, 5000 + added);
            present.addAll(extra);
            assertEquals(new HashSet<>(extra), new HashSet<>(sketch.added(present)), added + " added");
        }
        List<String> tooMany = names(0, 3000 + NameSetSketch.SUMS + 1);
        assertNull(sketch.added(tooMany));
    }

    @Test
    void recognizesRemovalsAndRefusesMixedChanges() {
        NameSetSketch sketch = NameSetSketch.of(names(0, 100));
        assertEquals(List.of(), sketch.added(names(5, 100)));
        List<String> mixed = names(5, 100);
        mixed.add("late.csv");
        assertNull(sketch.added(mixed));
        NameSetSketch copy = sketch.copy();
        copy.remove("f-0.csv");
        copy.add("f-0.csv");
        assertEquals(sketch, copy);
    }
}

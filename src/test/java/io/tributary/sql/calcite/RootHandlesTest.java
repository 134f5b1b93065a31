package io.tributary.sql.calcite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.linq4j.QueryProvider;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.junit.jupiter.api.Test;

/**
 * {@link RootHandles} answers each execution's own handle, looking it up by name once per
 * execution while one thread keeps calling with it, and again when another execution's calls
 * come between.
 */
class RootHandlesTest {
    private static final String NAME = "pg__test_handle";

    /** A session's handle schema. */
    private static final class Handle extends AbstractSchema {}

    /** One execution's context over a root holding {@code handle}; counts the root lookups. */
    private static final class Execution implements DataContext {
        final SchemaPlus root = CalciteSchema.createRootSchema(false).plus();
        int lookups;

        Execution(Handle handle) {
            root.add(NAME, handle);
        }

        @Override
        public SchemaPlus getRootSchema() {
            lookups++;
            return root;
        }

        @Override
        public JavaTypeFactory getTypeFactory() {
            return null;
        }

        @Override
        public QueryProvider getQueryProvider() {
            return null;
        }

        @Override
        public Object get(String name) {
            return null;
        }
    }

    @Test
    void eachExecutionGetsItsOwnHandleLookedUpOncePerRun() {
        RootHandles<Handle> handles = new RootHandles<>(NAME, Handle.class);
        Handle first = new Handle();
        Handle second = new Handle();
        Execution a = new Execution(first);
        Execution b = new Execution(second);
        for (int row = 0; row < 100; row++) {
            assertSame(first, handles.of(a));
        }
        assertEquals(1, a.lookups);
        assertSame(second, handles.of(b));
        assertSame(first, handles.of(a));
        assertSame(second, handles.of(b));
        assertEquals(2, a.lookups);
        assertEquals(2, b.lookups);
    }
}

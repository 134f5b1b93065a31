package io.tributary.sql.calcite;

import java.lang.ref.WeakReference;
import org.apache.calcite.DataContext;
import org.apache.calcite.schema.Schema;

/**
 * Finds, for generated code, the handle schema a session keeps in its Calcite root ({@link
 * SessionRandom}'s generator, {@link CurrentTimes}' session) once per execution and thread rather
 * than once per call: a call on a row looked it up by name among the root's sub-schemas, making
 * two schema wrappers per row. The code generator gives a function's call no place
 * to hold a value for the whole execution (its implementor writes the expression of one row), so
 * the thread remembers the last execution's {@link DataContext} and handle and compares by
 * identity. Both are held weakly: a finished session's objects are not kept alive by a thread
 * that ran its query. One per handle type; any thread.
 *
 * @param <T> the handle schema's class
 */
final class RootHandles<T extends Schema> {
    private final String schema;
    private final Class<T> type;
    private final ThreadLocal<Found<T>> last = new ThreadLocal<>();

    /**
     * @param schema the name of the root sub-schema holding the handle
     * @param type the handle's class
     */
    RootHandles(String schema, Class<T> type) {
        this.schema = schema;
        this.type = type;
    }

    /** The handle in {@code root}'s schema, looked up by name only when another execution than the thread's last asks. */
    T of(DataContext root) {
        Found<T> found = last.get();
        if (found != null && found.root.get() == root) {
            T handle = found.handle.get();
            if (handle != null) {
                return handle;
            }
        }
        T handle = root.getRootSchema().getSubSchema(schema).unwrap(type);
        last.set(new Found<>(new WeakReference<>(root), new WeakReference<>(handle)));
        return handle;
    }

    /** One execution's context and the handle found in it. */
    private record Found<T>(WeakReference<DataContext> root, WeakReference<T> handle) {}
}

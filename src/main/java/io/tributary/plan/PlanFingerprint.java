package io.tributary.plan;

import io.tributary.common.types.DataType;
import java.lang.reflect.Array;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A stable text form of a whole stream plan: every node and every component of it (keys, calls,
 * fields with their types, expressions with their types, distributions, limits), in the order the
 * plan holds them. Two plans with the same fingerprint run the same operators over the same state
 * tables in the same order, so the fingerprint stored when a view was created tells at restart
 * whether the plan its query has now may take over the view's state. Plan nodes and the plan's
 * own expressions are records and are written component by component (so a component added to a
 * node is covered without changing this class, unless it is marked {@link StateLifetime} and null);
 * other expressions by their {@code toString}.
 * Arrays are written element by element, never by identity. Stateless; not on any hot path (once per view creation and restart).
 */
public final class PlanFingerprint {
    private PlanFingerprint() {}

    /** The fingerprint of the plan under {@code root}. */
    public static String of(MaterializeNode root) {
        Form out = new Form();
        write(out, root);
        return out.text.toString();
    }

    /**
     * Whether {@code stored}, the fingerprint written when a view was created, lets the plan under
     * {@code root} take over the view's state: it is the plan's fingerprint, or that fingerprint with
     * some of the plan's {@link StateLifetime} components left out (an older build did not plan them).
     */
    public static boolean matches(String stored, MaterializeNode root) {
        Form out = new Form();
        write(out, root);
        return out.text.toString().equals(stored)
                || Pattern.compile(out.pattern()).matcher(stored).matches();
    }

    private static void write(Form out, Object value) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof DataType type) {
            out.append(type.sqlName());
        } else if (value.getClass().isArray()) {
            out.append('[');
            for (int i = 0, n = Array.getLength(value); i < n; i++) {
                if (i > 0) {
                    out.append(", ");
                }
                write(out, Array.get(value, i));
            }
            out.append(']');
        } else if (value instanceof List<?> list) {
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) {
                    out.append(", ");
                }
                write(out, list.get(i));
            }
            out.append(']');
        } else if (value instanceof Record record) {
            writeRecord(out, record);
        } else if (value instanceof ScalarExpr expr) {
            out.append(expr).append(" :: ").append(expr.type().sqlName());
        } else {
            out.append(value);
        }
    }

    private static void writeRecord(Form out, Record record) {
        out.append(record.getClass().getSimpleName()).append('(');
        RecordComponent[] components = record.getClass().getRecordComponents();
        boolean first = true;
        for (RecordComponent component : components) {
            Object value;
            try {
                value = component.getAccessor().invoke(record);
            } catch (IllegalAccessException | InvocationTargetException e) {
                throw new IllegalStateException("cannot read " + component + " of a plan node", e);
            }
            boolean lifetime = component.isAnnotationPresent(StateLifetime.class);
            if (value == null && lifetime) {
                continue;
            }
            if (lifetime) {
                out.beginOptional();
            }
            if (!first) {
                out.append(", ");
            }
            first = false;
            out.append(component.getName()).append('=');
            write(out, value);
            if (lifetime) {
                out.endOptional();
            }
        }
        out.append(')');
    }

    /**
     * A fingerprint being written: its text, and a regular expression that also matches the text
     * with any {@link StateLifetime} component's part left out.
     */
    private static final class Form {
        final StringBuilder text = new StringBuilder(1024);
        private final StringBuilder regex = new StringBuilder(1024);
        private final StringBuilder literal = new StringBuilder(256);

        Form append(Object part) {
            String s = String.valueOf(part);
            text.append(s);
            literal.append(s);
            return this;
        }

        Form append(char c) {
            text.append(c);
            literal.append(c);
            return this;
        }

        void beginOptional() {
            flush();
            regex.append("(?:");
        }

        void endOptional() {
            flush();
            regex.append(")?");
        }

        String pattern() {
            flush();
            return regex.toString();
        }

        private void flush() {
            if (literal.length() > 0) {
                regex.append(Pattern.quote(literal.toString()));
                literal.setLength(0);
            }
        }
    }
}

package io.tributary.sql.calcite;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * PostgreSQL's ordered-set aggregates that answer one of their values, {@code percentile_disc(f)
 * WITHIN GROUP (ORDER BY x)} and {@code mode() WITHIN GROUP (ORDER BY x)}, as Calcite user-defined
 * aggregates. {@link PgValueSemantics} writes an ascending call as {@code pg_percentile_disc(x,
 * f::float8)} or {@code pg_mode(x)}; {@link #register} adds one overload per value type (the
 * nested classes), so validation types the result as the key, as PostgreSQL does. Calcite's
 * generated code calls the static {@code init}, {@code add} and {@code result} on the thread that
 * runs the query, one {@link Values} per group. NULL keys are skipped; no key gives NULL.
 * {@code percentile_disc} answers the first value whose position in the sorted values reaches the
 * fraction ({@code ceil(f * n)}, PostgreSQL's {@code percentile_disc_final}); a NULL fraction gives
 * NULL, one outside [0, 1] is 22003. {@code mode} answers the most frequent value, the smallest of
 * equally frequent ones (PostgreSQL reads the values sorted and keeps the first longest run). Text
 * sorts by code point, PostgreSQL's C collation, which every Tributary database has. A {@code real}
 * key is read as double precision (Calcite resolves a DOUBLE argument to a {@code Float}
 * overload), so its result is typed double precision.
 */
public final class PgOrderedSets {
    /** The name {@link PgValueSemantics} gives {@code percentile_disc}. */
    static final String PERCENTILE_DISC = "pg_percentile_disc";
    /** The name {@link PgValueSemantics} gives {@code mode}. */
    static final String MODE = "pg_mode";

    private static final Comparator<Object> ORDER = PgOrderedSets::compare;

    private PgOrderedSets() {}

    /** Adds the overloads of both aggregates to {@code root}. Called by {@link CatalogSchema}. */
    static void register(org.apache.calcite.schema.SchemaPlus root) {
        for (Class<?> c : List.of(
                DiscInt2.class,
                DiscInt4.class,
                DiscInt8.class,
                DiscFloat8.class,
                DiscNumeric.class,
                DiscText.class,
                DiscBool.class)) {
            root.add(PERCENTILE_DISC, org.apache.calcite.schema.impl.AggregateFunctionImpl.create(c));
        }
        for (Class<?> c : List.of(
                ModeInt2.class,
                ModeInt4.class,
                ModeInt8.class,
                ModeFloat8.class,
                ModeNumeric.class,
                ModeText.class,
                ModeBool.class)) {
            root.add(MODE, org.apache.calcite.schema.impl.AggregateFunctionImpl.create(c));
        }
    }

    /** The keys of one group, and the fraction asked for. */
    public static final class Values {
        private Object[] values = new Object[8];
        private int count;
        private Double fraction;
        private boolean fractionSeen;

        Values add(Object value, Double f) {
            if (!fractionSeen) {
                fraction = f;
                fractionSeen = true;
            }
            return add(value);
        }

        Values add(Object value) {
            if (value != null) {
                if (count == values.length) {
                    values = Arrays.copyOf(values, count * 2);
                }
                values[count++] = value;
            }
            return this;
        }

        Object disc() {
            if (count == 0 || fraction == null) {
                return null;
            }
            double f = fraction;
            if (!(f >= 0 && f <= 1)) {
                throw new TributaryException(
                        SqlState.NUMERIC_VALUE_OUT_OF_RANGE,
                        "percentile value " + PgScalarFunctions.float8Text(f) + " is not between 0 and 1");
            }
            Object[] sorted = sorted();
            long position = (long) Math.ceil(f * count);
            return sorted[(int) Math.max(position, 1) - 1];
        }

        Object mode() {
            if (count == 0) {
                return null;
            }
            Object[] sorted = sorted();
            Object best = sorted[0];
            int bestRun = 0;
            int run = 0;
            for (int i = 0; i < count; i++) {
                run = i > 0 && compare(sorted[i], sorted[i - 1]) == 0 ? run + 1 : 1;
                if (run > bestRun) {
                    bestRun = run;
                    best = sorted[i - run + 1];
                }
            }
            return best;
        }

        private Object[] sorted() {
            Object[] sorted = Arrays.copyOf(values, count);
            Arrays.sort(sorted, ORDER);
            return sorted;
        }
    }

    /** PostgreSQL's order of two keys of one type: text by code point, numbers by value. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compare(Object a, Object b) {
        if (a instanceof String s && b instanceof String t) {
            return compareCodePoints(s, t);
        }
        if (a instanceof Double x && b instanceof Double y && x == 0 && y == 0) {
            return 0; // PostgreSQL's -0 equals 0
        }
        return ((Comparable) a).compareTo(b);
    }

    private static int compareCodePoints(String s, String t) {
        int i = 0;
        int j = 0;
        while (i < s.length() && j < t.length()) {
            int a = s.codePointAt(i);
            int b = t.codePointAt(j);
            if (a != b) {
                return Integer.compare(a, b);
            }
            i += Character.charCount(a);
            j += Character.charCount(b);
        }
        return Boolean.compare(i < s.length(), j < t.length());
    }

    /** {@code percentile_disc} over smallint. */
    public static final class DiscInt2 {
        public static Values init() {
            return new Values();
        }

        public static Values add(Values s, Short v, Double f) {
            return s.add(v, f);
        }

        public static Short result(Values s) {
            return (Short) s.disc();
        }
    }

    /** {@code percentile_disc} over integer. */
    public static final class DiscInt4 {
        public static Values init() {
            return new Values();
        }

        public static Values add(Values s, Integer v, Double f) {
            return s.add(v, f);
        }

        public static Integer result(Values s) {
            return (Integer) s.disc();
        }
    }

    /** {@code percentile_disc} over bigint. */
    public static final class DiscInt8 {
        public static Values init() {
            return new Values();
        }

        public static Values add(Values s, Long v, Double f) {
            return s.add(v, f);
        }

        public static Long result(Values s) {
            return (Long) s.disc();
        }
    }

    /** {@code percentile_disc} over double precision. */
    public static final class DiscFloat8 {
        public static Values init() {
            return new Values();
        }

        public static Values add(Values s, Double v, Double f) {
            return s.add(v, f);
        }

        public static Double result(Values s) {
            return (Double) s.disc();
        }
    }

    /** {@code percentile_disc} over numeric: the value keeps its own scale. */
    public static final class DiscNumeric {
        public static Values init() {
            return new Values();
        }

        public static Values add(Values s, BigDecimal v, Double f) {
            return s.add(v, f);
        }

        public static BigDecimal result(Values s) {
            return (BigDecimal) s.disc();
        }
    }

    /** {@code percentile_disc} over text. */
    public static final class DiscText {
        public static Values init() {
            return new Values();
        }

        public static Values add(Values s, String v, Double f) {
            return s.add(v, f);
        }

        public static String result(Values s) {
            return (String) s.disc();
        }
    }

    /** {@code percentile_disc} over boolean. */
    public static final class DiscBool {
        public static Values init() {
            return new Values();
        }

        public static Values add(Values s, Boolean v, Double f) {
            return s.add(v, f);
        }

        public static Boolean result(Values s) {
            return (Boolean) s.disc();
        }
    }

    /** {@code mode} over smallint. */
    public static final class ModeInt2 {
        public static Values init() {
            return new Values();
        }

        public static Values add(Values s, Short v) {
            return s.add(v);
        }

        public static Short result(Values s) {
            return (Short) s.mode();
        }
    }

    /** {@code mode} over integer. */
    public static final class ModeInt4 {
        public static Values init() {
            return new Values();
        }

        public static Values add(Values s, Integer v) {
            return s.add(v);
        }

        public static Integer result(Values s) {
            return (Integer) s.mode();
        }
    }

    /** {@code mode} over bigint. */
    public static final class ModeInt8 {
        public static Values init() {
            return new Values();
        }

        public static Values add(Values s, Long v) {
            return s.add(v);
        }

        public static Long result(Values s) {
            return (Long) s.mode();
        }
    }

    /** {@code mode} over double precision. */
    public static final class ModeFloat8 {
        public static Values init() {
            return new Values();
        }

        public static Values add(Values s, Double v) {
            return s.add(v);
        }

        public static Double result(Values s) {
            return (Double) s.mode();
        }
    }

    /** {@code mode} over numeric: the value keeps its own scale. */
    public static final class ModeNumeric {
        public static Values init() {
            return new Values();
        }

        public static Values add(Values s, BigDecimal v) {
            return s.add(v);
        }

        public static BigDecimal result(Values s) {
            return (BigDecimal) s.mode();
        }
    }

    /** {@code mode} over text. */
    public static final class ModeText {
        public static Values init() {
            return new Values();
        }

        public static Values add(Values s, String v) {
            return s.add(v);
        }

        public static String result(Values s) {
            return (String) s.mode();
        }
    }

    /** {@code mode} over boolean. */
    public static final class ModeBool {
        public static Values init() {
            return new Values();
        }

        public static Values add(Values s, Boolean v) {
            return s.add(v);
        }

        public static Boolean result(Values s) {
            return (Boolean) s.mode();
        }
    }
}

package io.tributary.sql.calcite;

import io.tributary.common.types.PgJson;
import io.tributary.common.types.PgJsonText;
import io.tributary.common.types.PgJsonb;

/**
 * The accumulators of PostgreSQL's {@code json_agg}, {@code jsonb_agg}, {@code json_object_agg}
 * and {@code jsonb_object_agg} ({@link JsonAggregates}). Each receives elements already written as
 * JSON text ({@link PgJsonFunctions#pg_json_element}, keys by {@link PgJsonFunctions#pg_json_key}),
 * never NULL, so Calcite's strict aggregate calls add every row. Calcite's generated code calls the
 * static methods reflectively, one accumulator per group, on the thread running the query; over no
 * rows the result is NULL, as PostgreSQL's.
 */
public final class PgJsonAggregates {
    private PgJsonAggregates() {}

    /** {@code json_agg}: {@code [a, b]}, each element's json text kept. */
    public static final class JsonAgg {
        private JsonAgg() {}

        public static StringBuilder init() {
            return new StringBuilder();
        }

        public static StringBuilder add(StringBuilder acc, String element) {
            return acc.append(acc.isEmpty() ? "[" : ", ").append(element);
        }

        public static PgJson result(StringBuilder acc) {
            return acc.isEmpty() ? null : new PgJson(acc + "]");
        }
    }

    /**
     * {@code json_agg} of whole rows or of arrays: {@code [a, \n b]}, a line break and a blank before
     * each element but the first, except a {@code null} one, as PostgreSQL writes an aggregate of
     * composite or array values.
     */
    public static final class JsonAggOfStructures {
        private JsonAggOfStructures() {}

        public static StringBuilder init() {
            return new StringBuilder();
        }

        public static StringBuilder add(StringBuilder acc, String element) {
            return acc.append(acc.isEmpty() ? "[" : element.equals("null") ? ", " : ", \n ")
                    .append(element);
        }

        public static PgJson result(StringBuilder acc) {
            return JsonAgg.result(acc);
        }
    }

    /** {@code jsonb_agg}: the array's elements as jsonb. */
    public static final class JsonbAgg {
        private JsonbAgg() {}

        public static StringBuilder init() {
            return new StringBuilder();
        }

        public static StringBuilder add(StringBuilder acc, String element) {
            return JsonAgg.add(acc, element);
        }

        public static PgJsonb result(StringBuilder acc) {
            return acc.isEmpty() ? null : PgJsonText.jsonb(acc + "]");
        }
    }

    /** {@code json_object_agg}: {@code { "k" : v, "k2" : v2 }}, keys in input order, duplicates kept. */
    public static final class JsonObjectAgg {
        private JsonObjectAgg() {}

        public static StringBuilder init() {
            return new StringBuilder();
        }

        public static StringBuilder add(StringBuilder acc, String key, String value) {
            return acc.append(acc.isEmpty() ? "{ " : ", ")
                    .append(key)
                    .append(" : ")
                    .append(value);
        }

        public static PgJson result(StringBuilder acc) {
            return acc.isEmpty() ? null : new PgJson(acc + " }");
        }
    }

    /** {@code jsonb_object_agg}: as jsonb (the last of duplicate keys wins). */
    public static final class JsonbObjectAgg {
        private JsonbObjectAgg() {}

        public static StringBuilder init() {
            return new StringBuilder();
        }

        public static StringBuilder add(StringBuilder acc, String key, String value) {
            return JsonObjectAgg.add(acc, key, value);
        }

        public static PgJsonb result(StringBuilder acc) {
            return acc.isEmpty() ? null : PgJsonText.jsonb(acc + " }");
        }
    }
}

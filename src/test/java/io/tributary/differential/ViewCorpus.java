package io.tributary.differential;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.StringJoiner;

/**
 * Random schemas, materialized-view queries and DML for {@link ViewDifferentialTest}. One instance generates one
 * case; every method draws only from the case's {@link Random} and never looks at query results, so a seed always
 * yields the same statements whatever the engines answer.
 *
 * <p>Every table has a join key {@code k} (INT or BIGINT, values 0..9), a text key {@code g} and one to three extra
 * columns of random types, some nullable, some NOT NULL; some tables have no primary key and hold duplicate rows.
 * Generated SQL avoids the batch engine's documented deviations: no AVG over NUMERIC, no NUMERIC division, no
 * value large enough to overflow, no floating point, no timestamps.
 */
final class ViewCorpus {
    /** Column types of the generated tables, with their SQL spelling. */
    enum ColType {
        INT("INT"),
        BIGINT("BIGINT"),
        TEXT("TEXT"),
        NUMERIC("NUMERIC(10,2)"),
        BOOLEAN("BOOLEAN");

        final String sql;

        ColType(String sql) {
            this.sql = sql;
        }

        boolean integral() {
            return this == INT || this == BIGINT;
        }

        boolean numeric() {
            return integral() || this == NUMERIC;
        }
    }

    record Column(String name, ColType type, boolean nullable) {}

    /** A generated table; {@code columns} starts with id, k and g. */
    record Table(String name, boolean hasPk, List<Column> columns) {
        Column column(String name) {
            return columns.stream().filter(c -> c.name.equals(name)).findFirst().orElseThrow();
        }
    }

    /**
     * A view to create. {@code approxNumeric}: its NUMERIC columns hold AVG results, compared by value with a
     * tolerance (Tributary's NUMERIC division scale is a known deviation).
     */
    record View(String name, String template, String sql, boolean approxNumeric) {}

    /** Names of the query templates, each instantiated at least once per case. */
    static final List<String> TEMPLATES = List.of(
            "filter_project",
            "case_coalesce",
            "agg_counts",
            "agg_sum_min_max",
            "agg_avg",
            "agg_bool",
            "agg_global",
            "agg_having",
            "agg_two_keys",
            "distinct",
            "join_inner",
            "join_left",
            "join_right",
            "join_full",
            "join_two_keys",
            "join_3way",
            "join_agg",
            "outer_join_agg",
            "union_all",
            "union_all_agg",
            "subquery_from",
            "subquery_join",
            "topn",
            "topn_agg",
            "chain_agg",
            "chain_filter_join",
            "chain_topn",
            "chain_join_views");

    private static final String[] WORDS = {"", "a", "ab", "abc", "b", "ba", "bca", "x", "xy", "zz"};
    private static final String[] G_VALUES = {"", "a", "b", "c"};
    private static final int K_VALUES = 10;
    /** PK updates add this to ids, far above any id the inserts allocate. */
    private static final int ID_SHIFT = 1_000_000;

    private final Random r;
    private final String prefix;
    private final List<Table> tables = new ArrayList<>();
    private final long[] nextId;
    private int nextView;

    /** Generates the schema of one case; tables are named {@code <prefix>_t0, <prefix>_t1, ...}. */
    ViewCorpus(Random r, String prefix) {
        this.r = r;
        this.prefix = prefix;
        int count = 2 + r.nextInt(2);
        for (int i = 0; i < count; i++) {
            tables.add(table(prefix + "_t" + i));
        }
        nextId = new long[count];
    }

    List<Table> tables() {
        return tables;
    }

    private Table table(String name) {
        boolean hasPk = r.nextInt(4) != 0;
        List<Column> cols = new ArrayList<>();
        cols.add(new Column("id", r.nextBoolean() ? ColType.INT : ColType.BIGINT, !hasPk && r.nextBoolean()));
        cols.add(new Column("k", r.nextBoolean() ? ColType.INT : ColType.BIGINT, r.nextInt(10) < 7));
        cols.add(new Column("g", ColType.TEXT, r.nextInt(10) < 7));
        int extras = 1 + r.nextInt(3);
        for (int i = 1; i <= extras; i++) {
            ColType type = ColType.values()[r.nextInt(ColType.values().length)];
            cols.add(new Column("x" + i, type, r.nextInt(10) < 7));
        }
        return new Table(name, hasPk, List.copyOf(cols));
    }

    static String ddl(Table t) {
        StringJoiner cols = new StringJoiner(", ", "CREATE TABLE " + t.name + " (", ")");
        for (Column c : t.columns) {
            String pk = t.hasPk && c.name.equals("id") ? " PRIMARY KEY" : "";
            cols.add(c.name + " " + c.type.sql + pk + (c.nullable || !pk.isEmpty() ? "" : " NOT NULL"));
        }
        return cols.toString();
    }

    // ---- values and predicates --------------------------------------------------------------------------------

    private String value(Column c) {
        if (c.nullable && r.nextInt(100) < 15) {
            return "NULL";
        }
        return switch (c.name) {
            case "k" -> Integer.toString(r.nextInt(K_VALUES));
            case "g" -> quote(G_VALUES[r.nextInt(G_VALUES.length)]);
            default -> constant(c.type);
        };
    }

    private String constant(ColType type) {
        return switch (type) {
            case INT -> Integer.toString(r.nextInt(101) - 50);
            case BIGINT -> Long.toString((r.nextInt(2_000_001) - 1_000_000) * 1_000_003L);
            case TEXT -> quote(WORDS[r.nextInt(WORDS.length)]);
            case NUMERIC -> {
                int cents = r.nextInt(199_999) - 99_999;
                yield (cents < 0 ? "-" : "") + Math.abs(cents) / 100 + "."
                        + String.format("%02d", Math.abs(cents) % 100);
            }
            case BOOLEAN -> r.nextBoolean() ? "TRUE" : "FALSE";
        };
    }

    /** A constant comparable with column {@code c}. */
    private String constantFor(Column c) {
        return switch (c.name) {
            case "k" -> Integer.toString(r.nextInt(K_VALUES + 2) - 1);
            case "g" -> quote(G_VALUES[r.nextInt(G_VALUES.length)]);
            default -> constant(c.type);
        };
    }

    private static String quote(String s) {
        return "'" + s.replace("'", "''") + "'";
    }

    /** A predicate over one column of {@code t}, columns qualified with {@code alias} (or bare when null). */
    private String predicate(Table t, String alias) {
        Column c = pick(t.columns);
        String col = qualify(alias, c.name);
        if (r.nextInt(8) == 0) {
            return col + (r.nextBoolean() ? " IS NULL" : " IS NOT NULL");
        }
        return switch (c.type) {
            case INT, BIGINT, NUMERIC ->
                switch (r.nextInt(4)) {
                    case 0 -> col + " > " + constantFor(c);
                    case 1 -> col + " <= " + constantFor(c);
                    case 2 -> col + " BETWEEN " + constantFor(c) + " AND " + constantFor(c);
                    default -> col + " <> " + constantFor(c);
                };
            case TEXT ->
                switch (r.nextInt(4)) {
                    case 0 -> col + " LIKE " + quote(pick(List.of("a%", "%b%", "_", "%a")));
                    case 1 -> col + " = " + constantFor(c);
                    case 2 -> col + " > " + constantFor(c);
                    default -> col + " IN (" + constantFor(c) + ", " + constantFor(c) + ")";
                };
            case BOOLEAN -> pick(List.of(col, "NOT " + col, col + " IS NOT TRUE", col + " IS FALSE"));
        };
    }

    /** A scalar expression over column {@code c}. */
    private String expression(Column c, String alias) {
        String col = qualify(alias, c.name);
        return switch (c.type) {
            case INT, BIGINT ->
                pick(List.of(
                        col + " * 2 + 1", col + " - 7", "abs(" + col + ")", "-" + col, col + " % 5", col + " / 3"));
            case NUMERIC ->
                pick(List.of(col + " * 2", col + " + 1.25", "-" + col, "abs(" + col + ")", "round(" + col + ", 1)"));
            case TEXT -> pick(List.of("upper(" + col + ")", col + " || '!'", "length(" + col + ")"));
            case BOOLEAN -> pick(List.of("NOT " + col, col + " IS TRUE", col + " OR " + qualify(alias, "k") + " > 3"));
        };
    }

    private static String qualify(String alias, String column) {
        return alias == null ? column : alias + "." + column;
    }

    private <T> T pick(List<T> items) {
        return items.get(r.nextInt(items.size()));
    }

    private Table table() {
        return pick(tables);
    }

    private List<Column> columnsWhere(Table t, java.util.function.Predicate<Column> p) {
        return t.columns.stream().filter(p).toList();
    }

    /** A column of a type SUM accepts (always includes k). */
    private Column summable(Table t) {
        return pick(columnsWhere(t, c -> c.type.numeric() && !c.name.equals("id")));
    }

    /** A column of a type MIN/MAX accept (PostgreSQL has no min(boolean)). */
    private Column ordered(Table t) {
        return pick(columnsWhere(t, c -> c.type != ColType.BOOLEAN));
    }

    private Column integral(Table t) {
        return pick(columnsWhere(t, c -> c.type.integral()));
    }

    private String boolExpr(Table t) {
        List<Column> bools = columnsWhere(t, c -> c.type == ColType.BOOLEAN);
        if (!bools.isEmpty() && r.nextBoolean()) {
            return pick(bools).name;
        }
        Column c = integral(t);
        return c.name + " > " + constantFor(c);
    }

    /** A GROUP BY key: its select-list form and its GROUP BY form. */
    private String[] groupKey(Table t) {
        return switch (r.nextInt(5)) {
            case 0 -> new String[] {"k AS gk", "k"};
            case 1 -> new String[] {"g AS gk", "g"};
            case 2 -> new String[] {"k % 3 AS gk", "k % 3"};
            case 3 -> {
                Column c = pick(columnsWhere(
                        t, x -> !x.name.equals("id") && x.type != ColType.NUMERIC && x.type != ColType.BIGINT));
                yield new String[] {c.name + " AS gk", c.name};
            }
            default -> new String[] {"k AS gk, g AS gk2", "k, g"};
        };
    }

    private String optionalWhere(Table t, String alias) {
        return r.nextBoolean() ? " WHERE " + predicate(t, alias) : "";
    }

    /** An extra, non-equi join condition between aliases {@code p} (table a) and {@code q} (table b). */
    private String extraCondition(Table a, Table b) {
        Column ca = integral(a);
        Column cb = integral(b);
        return switch (r.nextInt(4)) {
            case 0 -> "p." + ca.name + " < q." + cb.name;
            case 1 -> "p.g <> q.g";
            case 2 -> "p." + ca.name + " + q." + cb.name + " > " + (r.nextInt(41) - 20);
            default -> "q." + cb.name + " >= " + constantFor(cb);
        };
    }

    // ---- views --------------------------------------------------------------------------------------------------

    /** The views of one instance of {@code template}; later views of a chain read earlier ones. */
    List<View> views(String template) {
        Table a = table();
        Table b = table();
        Table c = table();
        return switch (template) {
            case "filter_project" ->
                one(
                        template,
                        "SELECT id AS i, " + expression(pick(a.columns), null) + " AS e1, "
                                + expression(pick(a.columns), null) + " AS e2 FROM " + a.name + " WHERE "
                                + predicate(a, null));
            case "case_coalesce" -> {
                Column n = integral(a);
                yield one(
                        template,
                        "SELECT id AS i, CASE WHEN " + n.name + " > " + constantFor(n) + " THEN 'hi' WHEN "
                                + n.name + " IS NULL THEN 'none' ELSE 'lo' END AS cs, coalesce(" + n.name
                                + ", -1) AS co,"
                                + " nullif(k, " + r.nextInt(K_VALUES) + ") AS nk, coalesce(nullif(g, "
                                + quote(G_VALUES[r.nextInt(G_VALUES.length)]) + "), 'none') AS cg FROM " + a.name
                                + optionalWhere(a, null));
            }
            case "agg_counts" -> {
                String[] key = groupKey(a);
                yield one(
                        template,
                        "SELECT " + key[0] + ", count(*) AS c, count(" + pick(a.columns).name
                                + ") AS cc, count(DISTINCT " + pick(a.columns).name + ") AS cd FROM " + a.name
                                + " GROUP BY " + key[1]);
            }
            case "agg_sum_min_max" -> {
                String[] key = groupKey(a);
                yield one(
                        template,
                        "SELECT " + key[0] + ", sum(" + summable(a).name + ") AS s, min("
                                + ordered(a).name + ") AS mn, max(" + ordered(a).name + ") AS mx FROM " + a.name
                                + optionalWhere(a, null) + " GROUP BY " + key[1]);
            }
            case "agg_avg" -> {
                String[] key = groupKey(a);
                yield List.of(new View(
                        nextName(),
                        template,
                        "SELECT " + key[0] + ", avg(" + integral(a).name + ") AS av, count(*) AS c FROM " + a.name
                                + " GROUP BY " + key[1],
                        true));
            }
            case "agg_bool" -> {
                String[] key = groupKey(a);
                yield one(
                        template,
                        "SELECT " + key[0] + ", bool_and(" + boolExpr(a) + ") AS ba, bool_or(" + boolExpr(a)
                                + ") AS bo FROM " + a.name + " GROUP BY " + key[1]);
            }
            case "agg_global" ->
                one(
                        template,
                        "SELECT count(*) AS c, count(" + pick(a.columns).name + ") AS cc, sum("
                                + summable(a).name + ") AS s, min(" + ordered(a).name + ") AS mn, max("
                                + ordered(a).name
                                + ") AS mx FROM " + a.name + optionalWhere(a, null));
            case "agg_having" -> {
                String[] key = groupKey(a);
                Column s = summable(a);
                yield one(
                        template,
                        "SELECT " + key[0] + ", count(*) AS c, sum(" + s.name + ") AS s FROM " + a.name
                                + " GROUP BY " + key[1] + " HAVING count(*) > " + (1 + r.nextInt(8))
                                + (r.nextBoolean() ? " OR" : " AND") + " sum(" + s.name + ") > " + constantFor(s));
            }
            case "agg_two_keys" ->
                one(
                        template,
                        "SELECT k AS gk, g AS gk2, count(*) AS c, max(" + ordered(a).name + ") AS mx FROM " + a.name
                                + " GROUP BY k, g");
            case "distinct" ->
                one(
                        template,
                        "SELECT DISTINCT " + pick(a.columns).name + " AS d1, "
                                + pick(a.columns.subList(1, a.columns.size())).name + " AS d2 FROM " + a.name
                                + optionalWhere(a, null));
            case "join_inner", "join_left", "join_right", "join_full" -> {
                String kind = switch (template) {
                    case "join_inner" -> "JOIN";
                    case "join_left" -> "LEFT JOIN";
                    case "join_right" -> "RIGHT JOIN";
                    default -> "FULL JOIN";
                };
                yield one(
                        template,
                        "SELECT p.id AS pid, q.id AS qid, p." + pick(a.columns).name + " AS pc, q."
                                + pick(b.columns).name + " AS qc FROM " + a.name + " p " + kind + " " + b.name
                                + " q ON p.k = q.k" + (r.nextInt(3) > 0 ? " AND " + extraCondition(a, b) : "")
                                + (template.equals("join_inner") || template.equals("join_left")
                                        ? optionalWhere(a, "p")
                                        : ""));
            }
            case "join_two_keys" ->
                one(
                        template,
                        "SELECT p.id AS pid, q.id AS qid, p.g AS pg FROM " + a.name + " p "
                                + pick(List.of("JOIN", "LEFT JOIN", "FULL JOIN")) + " " + b.name
                                + " q ON p.k = q.k AND p.g = q.g");
            case "join_3way" ->
                one(
                        template,
                        "SELECT p.id AS pid, q.id AS qid, w.id AS wid, w."
                                + pick(c.columns).name + " AS wc FROM " + a.name + " p JOIN " + b.name
                                + " q ON p.k = q.k "
                                + pick(List.of("JOIN", "LEFT JOIN")) + " " + c.name
                                + " w ON w.k = q.k AND w.g = p.g WHERE p.id % "
                                + (2 + r.nextInt(2)) + " = 0");
            case "join_agg" ->
                one(
                        template,
                        "SELECT p.k AS gk, count(*) AS c, sum(q." + summable(b).name
                                + ") AS s, max(p." + ordered(a).name + ") AS mx FROM " + a.name + " p JOIN " + b.name
                                + " q ON p.k = q.k GROUP BY p.k");
            case "outer_join_agg" ->
                one(
                        template,
                        "SELECT p.g AS gk, count(*) AS c, count(q.id) AS cq, sum(q.k) AS sk"
                                + " FROM " + a.name + " p LEFT JOIN " + b.name + " q ON p.k = q.k AND "
                                + extraCondition(a, b)
                                + " GROUP BY p.g");
            case "union_all" ->
                one(
                        template,
                        "SELECT k AS uk, g AS ug FROM " + a.name + optionalWhere(a, null)
                                + " UNION ALL SELECT k, g FROM " + b.name + optionalWhere(b, null)
                                + (r.nextBoolean()
                                        ? " UNION ALL SELECT k + 10, 'z' FROM " + c.name + optionalWhere(c, null)
                                        : ""));
            case "union_all_agg" ->
                one(
                        template,
                        "SELECT uk, count(*) AS c, count(DISTINCT src) AS srcs FROM"
                                + " (SELECT k AS uk, 'a' AS src FROM " + a.name + " UNION ALL SELECT k, 'b' FROM "
                                + b.name
                                + optionalWhere(b, null) + ") u GROUP BY uk");
            case "subquery_from" ->
                one(
                        template,
                        "SELECT x.gk, x.c, x.s FROM (SELECT k AS gk, count(*) AS c, sum(" + summable(a).name
                                + ") AS s FROM " + a.name + " GROUP BY k) x WHERE x.c > " + (2 + r.nextInt(8)));
            case "subquery_join" ->
                one(
                        template,
                        "SELECT x.k AS gk, x.c AS c1, y.c AS c2 FROM (SELECT k, count(*) AS c"
                                + " FROM " + a.name + " GROUP BY k) x " + pick(List.of("JOIN", "LEFT JOIN"))
                                + " (SELECT k,"
                                + " count(*) AS c FROM " + b.name + optionalWhere(b, null)
                                + " GROUP BY k) y ON x.k = y.k");
            case "topn" -> one(template, topN(a));
            case "topn_agg" ->
                one(
                        template,
                        "SELECT k AS gk, count(*) AS c FROM " + a.name + " GROUP BY k ORDER BY" + " count(*) "
                                + pick(List.of("DESC", "ASC")) + ", k LIMIT " + (1 + r.nextInt(4)));
            case "chain_agg" -> {
                View v1 = new View(
                        nextName(),
                        template,
                        "SELECT k, g, count(*) AS c, sum(" + summable(a).name + ") AS s FROM " + a.name
                                + optionalWhere(a, null) + " GROUP BY k, g",
                        false);
                View v2 = new View(
                        nextName(),
                        template,
                        "SELECT k, sum(c) AS c2, max(s) AS ms, count(*) AS ng FROM " + v1.name() + " GROUP BY k",
                        false);
                View v3 = new View(
                        nextName(),
                        template,
                        "SELECT v.k AS gk, v.c2, q.id AS qid FROM " + v2.name() + " v JOIN " + b.name
                                + " q ON q.k = v.k WHERE " + predicate(b, "q"),
                        false);
                yield List.of(v1, v2, v3);
            }
            case "chain_filter_join" -> {
                View v1 = new View(
                        nextName(),
                        template,
                        "SELECT id, k, " + pick(a.columns).name + " AS c FROM " + a.name + " WHERE "
                                + predicate(a, null),
                        false);
                View v2 = new View(
                        nextName(),
                        template,
                        "SELECT v.id AS i1, q.id AS i2, v.c FROM " + v1.name()
                                + " v " + pick(List.of("LEFT JOIN", "JOIN", "FULL JOIN")) + " " + b.name
                                + " q ON v.k = q.k",
                        false);
                View v3 = new View(
                        nextName(),
                        template,
                        "SELECT count(*) AS n, count(i2) AS n2, count(DISTINCT i1)" + " AS n1 FROM " + v2.name(),
                        false);
                yield List.of(v1, v2, v3);
            }
            case "chain_topn" -> {
                View v1 = new View(nextName(), template, topN(a), false);
                View v2 = new View(
                        nextName(),
                        template,
                        "SELECT count(*) AS n, min(i) AS mn, max(i) AS mx FROM " + v1.name(),
                        false);
                yield List.of(v1, v2);
            }
            case "chain_join_views" -> {
                View v1 = new View(
                        nextName(),
                        template,
                        "SELECT k, count(*) AS c, max(" + ordered(a).name + ") AS m FROM " + a.name + " GROUP BY k",
                        false);
                View v2 = new View(
                        nextName(), template, "SELECT DISTINCT k, g FROM " + b.name + optionalWhere(b, null), false);
                View v3 = new View(
                        nextName(),
                        template,
                        "SELECT x.k AS xk, x.c, y.g AS yg FROM " + v1.name() + " x "
                                + pick(List.of("JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN")) + " " + v2.name()
                                + " y ON x.k = y.k",
                        false);
                yield List.of(v1, v2, v3);
            }
            default -> throw new IllegalArgumentException(template);
        };
    }

    /**
     * A top-N query with a total order, so exactly one result is correct: with a primary key the order ends in
     * id; without one it covers every selected column, so tied rows are identical.
     */
    private String topN(Table t) {
        Column c = pick(t.columns.subList(1, t.columns.size()));
        String dir = pick(List.of("", " DESC", " NULLS FIRST", " DESC NULLS LAST", " ASC NULLS LAST"));
        int limit = 1 + r.nextInt(8);
        if (t.hasPk) {
            return "SELECT id AS i, " + c.name + " AS c FROM " + t.name + optionalWhere(t, null) + " ORDER BY " + c.name
                    + dir + ", id" + (r.nextBoolean() ? " DESC" : "") + " LIMIT " + limit;
        }
        return "SELECT id AS i, " + c.name + " AS c FROM " + t.name + optionalWhere(t, null) + " ORDER BY " + c.name
                + dir + ", id" + (r.nextBoolean() ? " DESC" : "") + " NULLS FIRST LIMIT " + limit;
    }

    private List<View> one(String template, String sql) {
        return List.of(new View(nextName(), template, sql, false));
    }

    private String nextName() {
        return prefix + "_v" + nextView++;
    }

    // ---- DML ------------------------------------------------------------------------------------------------------

    /** Multi-row INSERTs of {@code rows} new rows into {@code t}, at most 50 per statement. */
    List<String> inserts(Table t, int rows) {
        List<String> out = new ArrayList<>();
        int ti = tables.indexOf(t);
        for (int done = 0; done < rows; done += 50) {
            StringJoiner values = new StringJoiner(", ", "INSERT INTO " + t.name + " VALUES ", "");
            for (int i = done; i < Math.min(rows, done + 50); i++) {
                long id = t.hasPk || r.nextInt(5) > 0 ? ++nextId[ti] : 1 + r.nextInt((int) Math.max(1, nextId[ti]));
                StringJoiner row = new StringJoiner(", ", "(", ")");
                for (Column c : t.columns) {
                    row.add(
                            c.name.equals("id")
                                    ? (c.nullable && r.nextInt(20) == 0 ? "NULL" : Long.toString(id))
                                    : value(c));
                }
                values.add(row.toString());
            }
            out.add(values.toString());
        }
        return out;
    }

    /** One round of random DML over every table: inserts, updates (also of keys) and deletes. */
    List<String> round() {
        List<String> out = new ArrayList<>();
        for (Table t : tables) {
            out.addAll(inserts(t, 3 + r.nextInt(10)));
            int changes = 2 + r.nextInt(3);
            for (int i = 0; i < changes; i++) {
                out.add(change(t));
            }
        }
        return out;
    }

    private String change(Table t) {
        int m = 3 + r.nextInt(7);
        String idFilter = "id % " + m + " = " + r.nextInt(m);
        // not k: case 4 assigns k as well
        Column c = pick(t.columns.subList(2, t.columns.size()));
        Column n = summable(t);
        return switch (r.nextInt(9)) {
            case 0 -> "UPDATE " + t.name + " SET " + c.name + " = " + value(c) + " WHERE " + idFilter;
            case 1 ->
                "UPDATE " + t.name + " SET k = " + value(t.column("k")) + " WHERE " + predicate(t, null) + " AND "
                        + idFilter;
            case 2 ->
                "UPDATE " + t.name + " SET " + n.name + " = " + n.name
                        + (n.type == ColType.NUMERIC ? " + 1.25" : " + " + (1 + r.nextInt(5))) + ", g = "
                        + value(t.column("g")) + " WHERE k = " + r.nextInt(K_VALUES);
            case 3 ->
                t.hasPk
                        ? "UPDATE " + t.name + " SET id = id + " + ID_SHIFT + " WHERE " + idFilter
                        : "INSERT INTO " + t.name + " SELECT * FROM " + t.name + " WHERE " + idFilter;
            case 4 ->
                "UPDATE " + t.name + " SET " + c.name + " = " + value(c) + ", k = " + value(t.column("k")) + " WHERE "
                        + predicate(t, null) + " AND " + idFilter;
            case 5, 6 -> "DELETE FROM " + t.name + " WHERE " + idFilter;
            case 7 -> "DELETE FROM " + t.name + " WHERE k = " + r.nextInt(K_VALUES) + " AND " + predicate(t, null);
            default -> "DELETE FROM " + t.name + " WHERE " + predicate(t, null) + " AND " + idFilter;
        };
    }
}

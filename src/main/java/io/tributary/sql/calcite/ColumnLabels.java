package io.tributary.sql.calcite;

import io.tributary.common.types.DataType;
import io.tributary.common.types.TypeKind;
import io.tributary.sql.PgTypeNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;

/**
 * The column names PostgreSQL gives to unnamed select items, where Calcite would say
 * {@code EXPR$n}: the function name for calls ({@code count}), the type name for casts
 * ({@code int4}) and typed constants ({@code date}, {@code bool}), {@code case} for CASE, {@code row} and
 * {@code array} for those constructors and {@code ?column?} otherwise.
 */
final class ColumnLabels {
    /** Labels of the names only Calcite spells so ({@code x::char(3)}, {@code x::varbinary}). */
    private static final Map<String, String> CALCITE_ONLY_LABELS = Map.of(
            "char",
            "bpchar",
            "varbinary",
            "bytea",
            // timestamptz(p), which PgSyntaxText writes as Calcite's TIMESTAMP(p) WITH LOCAL TIME ZONE
            "timestamp_with_local_time_zone",
            "timestamptz");

    /**
     * Labels of the functions Tributary's rewrites write for PostgreSQL's syntax: an interval
     * constant or make_interval ({@link PgSyntaxText}, {@link IntervalSemantics}), Calcite's name for
     * three-argument translate, the operators {@link PgOperatorText} writes as calls, the formatting
     * functions ({@link PgFormattingCalls}), the constant {@code '24:00:00'::time} ({@link
     * TimeEndOfDay}); an infinite date or timestamp constant's is its type's ({@link InfinityConstants}).
     */
    private static final Map<String, String> FUNCTION_LABELS = Map.of(
            "pg_interval",
            "interval",
            "pg_make_interval",
            "make_interval",
            "translate3",
            "translate",
            PgFormattingCalls.TO_CHAR,
            "to_char",
            PgFormattingCalls.TO_DATE,
            "to_date",
            PgFormattingCalls.TO_TIMESTAMP,
            "to_timestamp",
            TimeEndOfDay.NAME,
            "time",
            PgSimilarSubstring.NAME,
            "substring");

    /** Where the parsed tree's nodes are in the text parsed, to tell its array constants; null when unknown. */
    private final StatementPositions positions;

    private ColumnLabels(StatementPositions positions) {
        this.positions = positions;
    }

    /**
     * The query whose select list names {@code query}'s columns: inside a WITH and ORDER BY, and the
     * first of a set operation's queries, as PostgreSQL names a set operation's columns after it.
     */
    static SqlNode leftmostQuery(SqlNode query) {
        SqlNode node = query;
        while (true) {
            if (node instanceof org.apache.calcite.sql.SqlWith with) {
                node = with.body;
            } else if (node instanceof SqlOrderBy ob) {
                node = ob.query;
            } else if (node.getKind() == SqlKind.UNION
                    || node.getKind() == SqlKind.INTERSECT
                    || node.getKind() == SqlKind.EXCEPT) {
                node = ((SqlCall) node).operand(0);
            } else {
                break;
            }
        }
        return node;
    }

    /**
     * One label per select item, with null standing for the one {@code *} or {@code t.*} item (its
     * columns keep their own names; {@link #expand} places the others); null when the select list has
     * several stars (positions unknown). A UNION, INTERSECT or EXCEPT is labelled by its leftmost
     * select, as PostgreSQL names a set operation's columns after its first query.
     */
    static List<String> of(SqlNode query) {
        return new ColumnLabels(null).labels(query);
    }

    /**
     * {@link #of(SqlNode)} for {@code query} parsed from the text rewrites' output, whose {@code
     * positions} tell an array constant {@link PgSyntaxText} made an {@code ARRAY[...]} ({@code
     * '{1,2}'::int[]}, labelled as its element type as in PostgreSQL) from a constructor the client
     * wrote (by its {@link PgSyntaxText#ARRAY_CONSTANT_MARK}).
     */
    static List<String> of(SqlNode query, StatementPositions positions) {
        return new ColumnLabels(positions).labels(query);
    }

    private List<String> labels(SqlNode query) {
        SqlNode node = leftmostQuery(query);
        if (node.getKind() == SqlKind.VALUES
                && ((SqlCall) node).operandCount() > 0
                && ((SqlCall) node).operand(0) instanceof SqlCall row) {
            // PostgreSQL names a VALUES list's columns column1, column2 ...
            List<String> columns = new ArrayList<>();
            for (int i = 1; i <= row.operandCount(); i++) {
                columns.add("column" + i);
            }
            return columns;
        }
        if (!(node instanceof SqlSelect select)) {
            return null;
        }
        List<String> out = new ArrayList<>();
        boolean star = false;
        for (SqlNode item : select.getSelectList()) {
            if (item instanceof SqlIdentifier id && id.isStar()) {
                if (star) {
                    return null;
                }
                star = true;
                out.add(null);
            } else {
                out.add(label(item));
            }
        }
        return out;
    }

    /**
     * The label of result column {@code column} (0-based) of a query with {@code width} columns whose
     * select items {@link #of} labelled {@code labels}: null for a column of the star or when the
     * counts do not fit.
     */
    static String expand(List<String> labels, int column, int width) {
        int item = item(labels, column, width);
        return item < 0 ? null : labels.get(item);
    }

    /**
     * {@code per}'s answer for each select item of {@code query}'s leftmost select (for the item's
     * value, its alias unwrapped; the star item included), aligned with {@link #of}'s labels; null
     * when the query is no select.
     */
    static <T> List<T> perItem(SqlNode query, Function<SqlNode, T> per) {
        if (!(leftmostQuery(query) instanceof SqlSelect select)) {
            return null;
        }
        List<T> out = new ArrayList<>();
        for (SqlNode item : select.getSelectList()) {
            out.add(per.apply(item.getKind() == SqlKind.AS ? ((SqlCall) item).operand(0) : item));
        }
        return out;
    }

    /**
     * {@link #perItem}'s answer for result column {@code column} (0-based, of {@code width}), or
     * {@code none} where no one item makes that column (a column of the star, counts that do not
     * fit, no list).
     *
     * @param labels {@link #of}'s labels for the same query, which place the star
     */
    static <T> T atColumn(List<T> perItem, List<String> labels, int column, int width, T none) {
        int item = item(labels, column, width);
        return perItem == null || item < 0 || item >= perItem.size() ? none : perItem.get(item);
    }

    /**
     * The select item (0-based, in {@code labels}) result column {@code column} of {@code width}
     * comes from: -1 for a column of the star or when the counts do not fit.
     */
    static int item(List<String> labels, int column, int width) {
        if (labels == null) {
            return -1;
        }
        int star = labels.indexOf(null);
        if (star < 0) {
            return labels.size() == width ? column : -1;
        }
        int starWidth = width - (labels.size() - 1);
        if (starWidth < 0 || (column >= star && column < star + starWidth)) {
            return -1;
        }
        return column < star ? column : column - starWidth + 1;
    }

    private String label(SqlNode item) {
        if (item instanceof SqlIdentifier id) {
            return id.names.get(id.names.size() - 1);
        }
        if (item.getKind() == SqlKind.AS) {
            return ((SqlCall) item).operand(1).toString();
        }
        if (item.getKind() == SqlKind.FILTER
                || item.getKind() == SqlKind.WITHIN_GROUP
                || item.getKind() == SqlKind.OVER) {
            // sum(x) FILTER (WHERE ...), percentile_cont(...) WITHIN GROUP (...), f(x) OVER (...): the function's name
            return label(((SqlCall) item).operand(0));
        }
        if (item.getKind() == SqlKind.CAST
                && item instanceof SqlBasicCall call
                && call.operand(1) instanceof SqlDataTypeSpec spec) {
            if (namesItself(call.operand(0))) {
                // PostgreSQL labels a cast of a column or function call by that name (i2::text is i2)
                return label(call.operand(0));
            }
            // an array type is labelled as its element type ('{1,2}'::int[] is int4), as PostgreSQL does
            org.apache.calcite.sql.SqlTypeNameSpec typeName =
                    spec.getTypeNameSpec() instanceof org.apache.calcite.sql.SqlCollectionTypeNameSpec array
                            ? array.getElementTypeName()
                            : spec.getTypeNameSpec();
            String name = typeName.getTypeName().getSimple().toLowerCase(Locale.ROOT);
            if (name.equals("char") && typeName.getTypeName().isComponentQuoted(0)) {
                // PostgreSQL's one-byte "char", not character(n)
                return name;
            }
            DataType type = PgTypeNames.lookup(name);
            return type != null ? typname(type.kind()) : CALCITE_ONLY_LABELS.getOrDefault(name, name);
        }
        if (item.getKind() == SqlKind.ITEM) {
            // a subscript is named as what it subscripts: s[i] is s, (string_to_array(...))[1] string_to_array
            return label(((SqlCall) item).operand(0));
        }
        if (item.getKind() == SqlKind.CASE) {
            // PostgreSQL names a CASE as its ELSE result where that names itself (ELSE id is id,
            // ELSE upper(s) upper, ELSE (SELECT 2) ?column?); a constant or operator names nothing
            SqlNode otherwise = ((org.apache.calcite.sql.fun.SqlCase) item).getElseOperand();
            boolean named = otherwise != null
                    && (namesItself(otherwise)
                            || otherwise.getKind() == SqlKind.CASE
                            || otherwise.getKind() == SqlKind.EXISTS
                            || otherwise.isA(SqlKind.QUERY)
                            || otherwise instanceof SqlOrderBy);
            return named ? label(otherwise) : "case";
        }
        if (item.getKind() == SqlKind.ROW) {
            return "row"; // ROW(1, 'a') and (1, 'a') alike
        }
        if (arrayConstructor(item)) {
            SqlNode element = arrayConstantElement(item);
            // ARRAY[1, 2], ARRAY[]::int[] and ARRAY(SELECT ...) alike; an array constant is a cast, named by its type
            return element != null ? label(element) : "array";
        }
        if (item.isA(SqlKind.QUERY) || item instanceof SqlOrderBy) {
            // a scalar sub-query is named as its first column is: (SELECT max(a) FROM t) is max
            List<String> inner = labels(item);
            return inner == null || inner.isEmpty() || inner.get(0) == null ? "?column?" : inner.get(0);
        }
        if (item.getKind() == SqlKind.EXISTS) {
            return "exists";
        }
        if (item.getKind() == SqlKind.OVERLAPS) {
            return "overlaps"; // PostgreSQL's grammar makes (a, b) OVERLAPS (c, d) a call of overlaps()
        }
        if (item instanceof org.apache.calcite.sql.SqlLiteral literal) {
            // a typed constant (DATE '...', INTERVAL '...') is a cast in PostgreSQL's grammar; so is true
            if (literal instanceof org.apache.calcite.sql.SqlUnknownLiteral unknown) {
                // Babel keeps DATE '...', TIME '...', TIMESTAMP '...' unresolved until validation
                String tag = unknown.tag.toLowerCase(Locale.ROOT);
                return tag.equals("timestamp with local time zone") ? "timestamptz" : tag;
            }
            org.apache.calcite.sql.type.SqlTypeName type = literal.getTypeName();
            if (type == org.apache.calcite.sql.type.SqlTypeName.DATE) {
                return "date";
            }
            if (type == org.apache.calcite.sql.type.SqlTypeName.TIME) {
                return "time";
            }
            if (type == org.apache.calcite.sql.type.SqlTypeName.TIMESTAMP) {
                return "timestamp";
            }
            if (type == org.apache.calcite.sql.type.SqlTypeName.BOOLEAN && literal.getValue() != null) {
                return "bool";
            }
            if (org.apache.calcite.sql.type.SqlTypeName.INTERVAL_TYPES.contains(type)) {
                return "interval";
            }
        }
        if (item.getKind() == SqlKind.TRIM
                && item instanceof SqlCall trim
                && trim.operand(0) instanceof org.apache.calcite.sql.SqlLiteral flag) {
            // PostgreSQL's grammar writes TRIM([BOTH | LEADING | TRAILING] ...) as btrim, ltrim or rtrim
            String side = String.valueOf(flag.getValue());
            return side.equals("LEADING") ? "ltrim" : side.equals("TRAILING") ? "rtrim" : "btrim";
        }
        if (item instanceof SqlCall call && call.getOperator() instanceof SqlFunction f) {
            String name = f.getName().toLowerCase(Locale.ROOT);
            // an interval constant or make_interval as PgSyntaxText and IntervalSemantics wrote it
            if (name.startsWith("pg_op_")) {
                return "?column?";
            }
            String infinity = InfinityConstants.label(name);
            return infinity != null ? infinity : FUNCTION_LABELS.getOrDefault(name, name);
        }
        return "?column?";
    }

    /**
     * Whether PostgreSQL's label of {@code node} outranks a cast's type name: a column, a function
     * call (not a cast or CASE) with any FILTER, WITHIN GROUP or OVER, a row or array constructor, or a cast of one of these (its
     * {@code FigureColname} strength 2).
     */
    private boolean namesItself(SqlNode node) {
        if (node instanceof SqlIdentifier id) {
            return !id.isStar();
        }
        if (node.getKind() == SqlKind.CAST && node instanceof SqlBasicCall cast) {
            return namesItself(cast.operand(0));
        }
        if (node.getKind() == SqlKind.OVER
                || node.getKind() == SqlKind.FILTER
                || node.getKind() == SqlKind.WITHIN_GROUP) {
            // a window or aggregate call's clauses keep it a function call (sum(x) OVER w::text is sum)
            return namesItself(((SqlCall) node).operand(0));
        }
        if (node.getKind() == SqlKind.ITEM) {
            // a subscript names nothing itself: s[1]::text is s, (ARRAY[1, 2])[1]::text array
            return namesItself(((SqlCall) node).operand(0));
        }
        if (node.getKind() == SqlKind.ROW || arrayConstructor(node)) {
            // PostgreSQL's row and array constructors name themselves as strongly (ARRAY[1]::text is
            // array); an array constant is a cast, which does not ('{1}'::int[]::text is text)
            return arrayConstantElement(node) == null;
        }
        return node instanceof SqlCall call
                && call.getOperator() instanceof SqlFunction
                && node.getKind() != SqlKind.CASE;
    }

    /**
     * Whether {@code node} is an {@code ARRAY[...]} or {@code ARRAY(SELECT ...)}, or the call an
     * empty one cast to an array type became ({@link ArrayFunctions#EMPTY_NAME}, from {@link
     * PgSyntaxText}).
     */
    private static boolean arrayConstructor(SqlNode node) {
        return node.getKind() == SqlKind.ARRAY_VALUE_CONSTRUCTOR
                || node.getKind() == SqlKind.ARRAY_QUERY_CONSTRUCTOR
                || node instanceof SqlCall call
                        && call.getOperator().getName().equalsIgnoreCase(ArrayFunctions.EMPTY_NAME);
    }

    /**
     * For an {@link #arrayConstructor} that {@link PgSyntaxText} wrote for an array constant cast
     * to an array type (marked so in the text parsed, inside any parentheses the node's position
     * takes in: {@code ('{1}'::int[])::text}), the cast of one element to the element type, which
     * labels it; null for a constructor the client wrote, or an array constant of NULLs alone.
     */
    private SqlNode arrayConstantElement(SqlNode array) {
        if (positions == null || !positions.parsedMarked(array.getParserPosition(), PgSyntaxText.ARRAY_CONSTANT_MARK)) {
            return null;
        }
        List<SqlNode> elements = array.getKind() != SqlKind.ARRAY_QUERY_CONSTRUCTOR
                ? ((SqlCall) array).getOperandList()
                : ((SqlCall) array).operand(0) instanceof SqlSelect query
                        ? query.getSelectList().getList()
                        : List.of();
        for (SqlNode element : elements) {
            // the rewrite's elements are constants cast to the element type
            if (element.getKind() == SqlKind.CAST
                    && ((SqlCall) element).operand(0) instanceof org.apache.calcite.sql.SqlLiteral) {
                return element;
            }
        }
        return null;
    }

    /** PostgreSQL's {@code pg_type.typname}, which it uses as the label of a cast. */
    private static String typname(TypeKind kind) {
        return switch (kind) {
            case BOOLEAN -> "bool";
            case SMALLINT -> "int2";
            case INTEGER -> "int4";
            case BIGINT -> "int8";
            case REAL -> "float4";
            case DOUBLE -> "float8";
            case NUMERIC -> "numeric";
            case VARCHAR -> "varchar";
            case TEXT -> "text";
            case BPCHAR -> "bpchar";
            case DATE -> "date";
            case TIME -> "time";
            case TIMESTAMP -> "timestamp";
            case TIMESTAMPTZ -> "timestamptz";
            case INTERVAL -> "interval";
            case BYTEA -> "bytea";
            case UUID -> "uuid";
            case JSON -> "json";
            case JSONB -> "jsonb";
            case ARRAY -> "array";
        };
    }
}

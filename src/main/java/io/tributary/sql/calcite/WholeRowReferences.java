package io.tributary.sql.calcite;

import io.tributary.common.TributaryException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SelectScope;
import org.apache.calcite.sql.validate.SqlNameMatcher;
import org.apache.calcite.sql.validate.SqlValidatorNamespace;
import org.apache.calcite.sql.validate.SqlValidatorScope;

/**
 * PostgreSQL's whole-row references in a select list: a bare name that is no column but a FROM
 * item's name ({@code SELECT t FROM t}, {@code row_to_json(x)} over a sub-query {@code x}) stands
 * for that item's row. Calcite has no such reference, so each one becomes what PostgreSQL computes
 * from it, spelled with the item's columns:
 *
 * <ul>
 *   <li>the argument of {@code row_to_json} or {@code to_json} makes the call {@code
 *       pg_row_to_json('c1', t.c1, ...)} (json, keys in column order, {@link PgJsonBuild});
 *       of {@code to_jsonb} a {@code jsonb_build_object} of the same pairs; of {@code json_agg}
 *       ({@link JsonAggregates#STRUCTURES_AGG}, which sets rows apart as PostgreSQL does) and {@code
 *       jsonb_agg} the aggregate of those objects;
 *   <li>anywhere else the row constructor {@code ROW(t.c1, ...)}, a {@code record} printed as
 *       PostgreSQL prints it ({@link PgRecordText}), labelled with the item's name when it is a
 *       whole select item.
 * </ul>
 *
 * Inside JSON a date, time or interval field is its text and a timestamp field its ISO text
 * ({@link PgJsonFunctions#pg_json_timestamp}), as PostgreSQL's JSON writes them. Called by {@link
 * PgValidator#validateSelectList} on the validating thread, once the FROM clause is validated and
 * before the select list is; other clauses' names are left to Calcite (a whole row there is still
 * 42703). Stateless.
 */
final class WholeRowReferences {
    /** The JSON functions whose one whole-row argument becomes an object of the row's columns. */
    private static final Set<String> TO_OBJECT = Set.of("row_to_json", "to_json", "to_jsonb", "json_agg", "jsonb_agg");

    /** The types Calcite hands the JSON functions as bare numbers (PostgreSQL's names). */
    private static final Set<String> JSON_AS_NUMBERS = Set.of(
            "date", "time without time zone", "timestamp without time zone", "timestamp with time zone", "interval");

    private WholeRowReferences() {}

    /**
     * Replaces the whole-row references among {@code items} (in place), resolving names in {@code
     * scope}; {@code ownName} gives the name PostgreSQL gives a field of a FROM item.
     */
    static void rewrite(SqlNodeList items, SelectScope scope, SqlNameMatcher matcher, OwnNames ownName) {
        Rewriter rewriter = new Rewriter(scope, matcher, ownName);
        for (int i = 0; i < items.size(); i++) {
            SqlNode item = items.get(i);
            if (item instanceof SqlIdentifier id) {
                FromItem row = rewriter.fromItem(id);
                if (row != null) {
                    items.set(
                            i,
                            SqlStdOperatorTable.AS.createCall(
                                    id.getParserPosition(),
                                    row.constructor(),
                                    new SqlIdentifier(id.names.get(0), id.getParserPosition())));
                }
            } else {
                items.set(i, rewriter.within(item));
            }
        }
    }

    /** The name PostgreSQL gives field {@code field} of a FROM item's namespace. */
    @FunctionalInterface
    interface OwnNames {
        String of(SqlValidatorNamespace namespace, int field);
    }

    /** Finds and replaces whole-row references in one select list's expressions. */
    private record Rewriter(SelectScope scope, SqlNameMatcher matcher, OwnNames ownName) {
        /** {@code node} with its whole-row references replaced; sub-queries are left to their own validation. */
        SqlNode within(SqlNode node) {
            if (!(node instanceof SqlCall call) || node.getKind() == SqlKind.SELECT || node.isA(SqlKind.QUERY)) {
                return node;
            }
            String name = call.getOperator().getName().toLowerCase(Locale.ROOT);
            if (TO_OBJECT.contains(name) && call.operandCount() == 1) {
                SqlCall argumentOf = aggregatedElement(name, call);
                if (argumentOf.operand(0) instanceof SqlIdentifier id) {
                    FromItem row = fromItem(id);
                    if (row != null) {
                        return objectCall(name, call, argumentOf, row);
                    }
                }
            }
            List<SqlNode> operands = call.getOperandList();
            // AS: its other operands are the alias and column names, which may equal a FROM item's name
            int count = call.getKind() == SqlKind.AS ? 1 : operands.size();
            for (int i = 0; i < count; i++) {
                SqlNode operand = operands.get(i);
                SqlNode replaced = operand;
                if (operand instanceof SqlIdentifier id) {
                    FromItem row = fromItem(id);
                    replaced = row == null ? operand : row.constructor();
                } else if (operand != null) {
                    replaced = within(operand);
                }
                if (replaced != operand) {
                    call.setOperand(i, replaced);
                }
            }
            return call;
        }

        /**
         * The call whose one argument is a json aggregate's element: the {@code pg_json_element}
         * call {@link JsonAggregates} wrapped it in, else {@code call} itself.
         */
        private static SqlCall aggregatedElement(String name, SqlCall call) {
            boolean aggregate = name.endsWith("_agg");
            return aggregate
                            && call.operand(0) instanceof SqlCall element
                            && element.operandCount() == 1
                            && element.getOperator().getName().equalsIgnoreCase("pg_json_element")
                    ? element
                    : call;
        }

        /** The call PostgreSQL's JSON function {@code name} of {@code row} amounts to. */
        private static SqlNode objectCall(String name, SqlCall call, SqlCall argumentOf, FromItem row) {
            return switch (name) {
                case "to_jsonb" -> row.object("jsonb_build_object");
                case "json_agg" -> {
                    argumentOf.setOperand(0, row.object("pg_row_to_json"));
                    yield JsonAggregates.named(JsonAggregates.STRUCTURES_AGG)
                            .createCall(call.getFunctionQuantifier(), call.getParserPosition(), call.getOperandList());
                }
                case "jsonb_agg" -> {
                    argumentOf.setOperand(0, row.object("jsonb_build_object"));
                    yield call;
                }
                default -> row.object("pg_row_to_json");
            };
        }

        /**
         * The FROM item a bare one-part name refers to as a whole row, or null when the name is a
         * column (columns come first, as in PostgreSQL), qualified, or names no single FROM item.
         */
        FromItem fromItem(SqlIdentifier id) {
            if (id.names.size() != 1 || id.isStar()) {
                return null;
            }
            String name = id.names.get(0);
            if (!scope.findQualifyingTableNames(name, id, matcher).isEmpty()) {
                return null;
            }
            SqlValidatorScope.ResolvedImpl resolved = new SqlValidatorScope.ResolvedImpl();
            scope.resolve(List.of(name), matcher, false, resolved);
            if (resolved.count() != 1) {
                return null;
            }
            SqlValidatorNamespace namespace = resolved.only().namespace;
            return new FromItem(name, namespace, ownName, id.getParserPosition());
        }
    }

    /** A FROM item whose row a name stands for, and the expressions made of its columns. */
    private record FromItem(String alias, SqlValidatorNamespace namespace, OwnNames ownName, SqlParserPos pos) {
        /** {@code ROW(alias.c1, ...)}. */
        SqlNode constructor() {
            List<SqlNode> fields = new ArrayList<>();
            for (String field : namespace.getRowType().getFieldNames()) {
                fields.add(column(field));
            }
            return SqlStdOperatorTable.ROW.createCall(pos, fields);
        }

        /** {@code function('c1', json value of alias.c1, ...)}, keys in column order. */
        SqlNode object(String function) {
            List<SqlNode> pairs = new ArrayList<>();
            List<org.apache.calcite.rel.type.RelDataTypeField> fields =
                    namespace.getRowType().getFieldList();
            for (int i = 0; i < fields.size(); i++) {
                pairs.add(SqlLiteral.createCharString(ownName.of(namespace, i), pos));
                pairs.add(
                        jsonValue(column(fields.get(i).getName()), fields.get(i).getType()));
            }
            return call(function, pairs);
        }

        private SqlIdentifier column(String field) {
            return new SqlIdentifier(List.of(alias, field), pos);
        }

        /**
         * {@code value} as the JSON functions must receive it: a date or time as its text and a
         * timestamp as its ISO text, which they cannot tell from the numbers Calcite holds them
         * as; other values as they are.
         *
         * @throws TributaryException 0A000 for an interval, or an array of any of those, which
         *     have no such text here
         */
        private SqlNode jsonValue(SqlNode value, RelDataType type) {
            String pgType = pgName(type);
            if (pgType.startsWith("interval")
                    || pgType.endsWith("[]") && JSON_AS_NUMBERS.contains(pgType.substring(0, pgType.length() - 2))) {
                // Calcite holds an interval as a count, whose text is not PostgreSQL's either
                throw TributaryException.notSupported("a row holding a value of type " + pgType + " in JSON");
            }
            return switch (pgType) {
                case "date", "time without time zone" -> text(value);
                case "timestamp without time zone", "timestamp with time zone" ->
                    call("pg_json_timestamp", List.of(text(value)));
                default -> value;
            };
        }

        private static String pgName(RelDataType type) {
            try {
                return PgTypeOf.name(type);
            } catch (TributaryException noColumnType) {
                return "";
            }
        }

        private SqlNode text(SqlNode value) {
            return SqlStdOperatorTable.CAST.createCall(
                    pos, value, new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.VARCHAR, pos), pos));
        }

        private SqlNode call(String function, List<SqlNode> operands) {
            SqlOperator operator = new SqlUnresolvedFunction(
                    new SqlIdentifier(function, pos),
                    null,
                    null,
                    null,
                    null,
                    SqlFunctionCategory.USER_DEFINED_FUNCTION);
            return operator.createCall(pos, operands);
        }
    }
}

package io.tributary.sql.calcite;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlIntervalLiteral;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.fun.SqlInternalOperators;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorException;
import org.apache.calcite.sql.validate.SqlValidatorNamespace;
import org.apache.calcite.sql.validate.SqlValidatorScope;
import org.apache.calcite.sql.validate.TableConstructorNamespace;
import org.apache.calcite.util.Litmus;

/**
 * PostgreSQL's resolution of the one type of several values a construct combines (its {@code
 * select_common_type}): the results of a CASE or COALESCE, the arguments of GREATEST or LEAST, a
 * column of a set operation's two inputs or of a VALUES list. A string constant among them takes
 * the type of the typed ones ({@code coalesce(i, '0')} is integer), where Calcite would make all
 * text; typed values of two type categories (a typed string and a number, a number and a date)
 * are 42804 ({@code CASE types text and integer cannot be matched}); exact numbers of different
 * types or scales, one a NUMERIC, keep their own scales as PostgreSQL's NUMERIC result does.
 *
 * <p>Called by {@link PgValidator} before Calcite derives a construct's type, and by {@link
 * PgTypeCoercion#caseOrEquivalentCoercion} while Calcite infers a CASE's or COALESCE's; the
 * casts it writes go through that {@link PgTypeCoercion}. One instance per validator (its {@link
 * PgTypeCoercion}'s), used by the thread validating.
 */
final class CommonTypeResolution {
    private final PgTypeCoercion coercion;
    private final RelDataTypeFactory factory;
    private final SqlValidator validator;

    CommonTypeResolution(PgTypeCoercion coercion, RelDataTypeFactory factory, SqlValidator validator) {
        this.coercion = coercion;
        this.factory = factory;
        this.validator = validator;
    }

    /**
     * PostgreSQL's resolution of a CASE's or COALESCE's result type: a typed string and a
     * non-string (or a number and a date, any two type categories) have none (42804, {@code CASE types text and integer cannot be matched}), and a
     * string constant takes the type of the typed results ({@code coalesce(i, '0')} is integer),
     * where Calcite would make both text. Called by Calcite's CASE and COALESCE while inferring
     * their type (through {@link PgTypeCoercion#caseOrEquivalentCoercion}), when its least
     * restrictive type of the results is none.
     *
     * @return whether a string constant was cast to the results' type; false leaves the call to
     *     Calcite's own coercion
     * @throws CalciteContextException for a typed string beside a non-string result
     */
    boolean caseOrEquivalent(SqlCallBinding binding) {
        SqlCall call = binding.getCall();
        List<SqlNode> results = new ArrayList<>();
        String context = results(call, results);
        if (context == null) {
            return false;
        }
        RelDataType common = commonType(context, binding.getScope(), results);
        if (common == null || SqlTypeUtil.isCharacter(common)) {
            return false;
        }
        boolean coerced = false;
        for (int i = 0; i < call.operandCount(); i++) {
            SqlNode operand = call.operand(i);
            if (operand instanceof SqlNodeList thens && call instanceof SqlCase && i == 2) {
                for (int j = 0; j < thens.size(); j++) {
                    if (stringConstant(thens.get(j))) {
                        coerced |= coercion.coerceColumn(binding.getScope(), thens, j, common);
                    }
                }
            } else if (operand != null && stringConstant(operand) && (i == 3 || !(call instanceof SqlCase))) {
                coerced |= coercion.coerceOperand(binding.getScope(), call, i, common);
            }
        }
        return coerced;
    }

    /**
     * Refuses a CASE or COALESCE whose typed results are of two type categories, such as a date
     * and an integer (42804, {@code CASE types integer and date cannot be matched}), which
     * Calcite's own least restrictive type would accept; and where PostgreSQL's result is a
     * NUMERIC of the results' own scales (an integer beside a {@code numeric(10,2)}, two numerics
     * of different scales), passes each result through {@code pg_numeric}, which keeps its value's
     * scale, where Calcite would cast all to one scale ({@code coalesce(i, n)} printed {@code
     * 5.00}; PostgreSQL: {@code 5}); number arrays of different element types, one numeric, pass
     * through {@code pg_numeric_array} the same way. Called by {@link PgValidator} before Calcite
     * derives the call's type; another call is left alone.
     *
     * @throws CalciteContextException for results of two categories
     */
    void resolveResults(SqlCall call, SqlValidatorScope scope) {
        List<SqlNode> results = new ArrayList<>();
        String context = results(call, results);
        if (context == null) {
            return;
        }
        commonType(context, scope, results);
        if (call instanceof SqlCase sqlCase && ownScales(scope, results, false)) {
            SqlNodeList thens = sqlCase.getThenOperands();
            for (int j = 0; j < thens.size(); j++) {
                thens.set(j, keepingScale(thens.get(j)));
            }
            sqlCase.setOperand(3, keepingScale(sqlCase.getElseOperand()));
        } else if (call instanceof SqlCase sqlCase && ownScales(scope, results, true)) {
            SqlNodeList thens = sqlCase.getThenOperands();
            for (int j = 0; j < thens.size(); j++) {
                thens.set(j, keepingElementScales(thens.get(j)));
            }
            sqlCase.setOperand(3, keepingElementScales(sqlCase.getElseOperand()));
        }
    }

    /**
     * PostgreSQL's {@code ARRAY[...]} of exact numbers of different types or scales, one at least
     * a NUMERIC ({@code ARRAY[1.5, 2.25]}, {@code ARRAY[1, 2.5]}): an unconstrained {@code
     * numeric[]} whose elements keep their own scales, where Calcite casts all to the widest scale
     * ({@code {1.50,2.25}}). Each element then goes through {@code pg_numeric}, which keeps its
     * value's scale. Called by {@link PgValidator} before Calcite derives the constructor's type.
     */
    void resolveArrayElements(SqlCall constructor, SqlValidatorScope scope) {
        if (!ownScales(scope, constructor.getOperandList(), false)) {
            return;
        }
        for (int i = 0; i < constructor.operandCount(); i++) {
            constructor.setOperand(i, keepingScale(constructor.operand(i)));
        }
    }

    /**
     * {@code node} through {@code pg_numeric_array} (inside the {@code CAST NOT NULL} of Calcite's
     * COALESCE rewrite, which stays outermost); a NULL as it is.
     */
    private static SqlNode keepingElementScales(SqlNode node) {
        if (node == null || SqlUtil.isNullLiteral(node, false)) {
            return node;
        }
        if (node instanceof SqlCall call && call.getOperator() == SqlInternalOperators.CAST_NOT_NULL) {
            return notNullCast(call, keepingElementScales(call.operand(0)));
        }
        return ArrayFunctions.named(ArrayFunctions.NUMERIC_NAME).createCall(node.getParserPosition(), node);
    }

    /**
     * Whether PostgreSQL's result of {@code results} keeps its numbers' own scales while Calcite
     * would cast them to one. Without {@code elements}: a NUMERIC, when all typed results are
     * exact numbers, one at least a NUMERIC, not all of one type or beside a string constant
     * ({@code coalesce(numeric_col, '5')} is {@code 5}), and none is a parameter. With {@code
     * elements}: a {@code numeric[]}, when all typed results are arrays and the same holds of their
     * element types ({@code CASE WHEN b THEN ARRAY[1.5] ELSE numeric_array END} printed 16
     * decimals), none a string constant or of unknown type.
     *
     * @param elements whether the type to judge is each result's element type, not its own
     */
    private boolean ownScales(SqlValidatorScope scope, List<SqlNode> results, boolean elements) {
        boolean numeric = false;
        boolean mixed = false;
        RelDataType first = null;
        for (SqlNode result : results) {
            SqlNode node = result == null ? null : notNullCastRemoved(result);
            if (node == null || SqlUtil.isNullLiteral(node, false)) {
                continue;
            }
            if (node instanceof SqlCharStringLiteral && !elements) {
                // PostgreSQL reads it as an unconstrained NUMERIC, keeping its digits
                mixed = true;
                continue;
            }
            if (PgTypeCoercion.unknownTyped(node)) {
                return false;
            }
            RelDataType type = validator.deriveType(scope, node);
            if (PgTypeCoercion.untyped(type) && !elements) {
                continue;
            }
            RelDataType judged = elements ? type.getComponentType() : type;
            if (judged == null || !SqlTypeUtil.isExactNumeric(judged)) {
                return false;
            }
            numeric |= judged.getSqlTypeName() == SqlTypeName.DECIMAL;
            if (first == null) {
                first = judged;
            } else {
                mixed |= !SqlTypeUtil.equalSansNullability(factory, first, judged);
            }
        }
        return numeric && mixed;
    }

    /**
     * {@code node} through {@code pg_numeric} (inside the {@code CAST NOT NULL} of Calcite's
     * COALESCE rewrite, which stays outermost); a NULL as it is.
     */
    private static SqlNode keepingScale(SqlNode node) {
        if (node == null || SqlUtil.isNullLiteral(node, false)) {
            return node;
        }
        if (node instanceof SqlCall call && call.getOperator() == SqlInternalOperators.CAST_NOT_NULL) {
            return notNullCast(call, keepingScale(call.operand(0)));
        }
        SqlParserPos pos = node.getParserPosition();
        SqlUnresolvedFunction pgNumeric = new SqlUnresolvedFunction(
                new SqlIdentifier(List.of("pg_numeric"), pos),
                null,
                null,
                null,
                null,
                SqlFunctionCategory.USER_DEFINED_FUNCTION);
        return new SqlBasicCall(pgNumeric, List.of(node), pos);
    }

    /**
     * A new {@code CAST NOT NULL} of {@code operand} in place of {@code cast}, not {@code cast} with
     * its operand swapped: {@link #commonType} has already derived {@code cast}'s type, which the
     * validator keeps per node, so the swapped cast would keep its old operand's type (a {@code
     * sum} of a numeric(12,2) is numeric(38,2)) and the COALESCE be typed by it, not as converted
     * (Calcite's "failed to preserve datatypes", XX000).
     */
    private static SqlNode notNullCast(SqlCall cast, SqlNode operand) {
        return SqlInternalOperators.CAST_NOT_NULL.createCall(cast.getParserPosition(), operand);
    }

    /**
     * Adds the results of a CASE or COALESCE ({@code call}) to {@code results} in the order
     * PostgreSQL resolves them; returns the construct's name, or null for another call.
     */
    private static String results(SqlCall call, List<SqlNode> results) {
        if (call instanceof SqlCase sqlCase) {
            if (rewrittenCoalesce(sqlCase)) {
                results.addAll(sqlCase.getThenOperands());
                results.add(sqlCase.getElseOperand());
                return "COALESCE";
            }
            // PostgreSQL resolves the ELSE first, then the THENs in order
            results.add(sqlCase.getElseOperand());
            results.addAll(sqlCase.getThenOperands());
            return "CASE";
        } else if (call.getKind() == SqlKind.COALESCE) {
            results.addAll(call.getOperandList());
            return "COALESCE";
        }
        return null;
    }

    /**
     * PostgreSQL's resolution of each column of {@code setop} (a UNION, INTERSECT or EXCEPT) from
     * its two inputs, which this validates: a string constant beside a typed non-string takes that
     * type ({@code SELECT i UNION SELECT '7'} is integer), and a typed string beside a typed
     * non-string is 42804 ({@code UNION types integer and text cannot be matched}) at the right
     * input's column; a Calcite interval constant beside an interval column becomes PostgreSQL's
     * interval ({@code SELECT iv FROM t UNION SELECT INTERVAL '2 hours'}). Called by {@link PgValidator} before Calcite checks the inputs, which would
     * make both text.
     *
     * @throws CalciteContextException for a typed string beside a non-string column
     */
    void resolveSetOperation(SqlCall setop) {
        SqlNode left = setop.operand(0);
        SqlNode right = setop.operand(1);
        SqlValidatorNamespace leftSpace = validator.getNamespace(left);
        SqlValidatorNamespace rightSpace = validator.getNamespace(right);
        if (leftSpace == null || rightSpace == null) {
            return;
        }
        RelDataType leftRow = leftSpace.getRowType();
        RelDataType rightRow = rightSpace.getRowType();
        if (leftRow.getFieldCount() != rightRow.getFieldCount()) {
            return; // Calcite's error says so
        }
        for (int i = 0; i < leftRow.getFieldCount(); i++) {
            RelDataType a = leftRow.getFieldList().get(i).getType();
            RelDataType b = rightRow.getFieldList().get(i).getType();
            SqlNode leftItem = column(left, i);
            SqlNode rightItem = column(right, i);
            if (PgIntervals.isInterval(a) != PgIntervals.isInterval(b)) {
                // an interval column beside a Calcite interval constant, which no common type joins:
                // the constant becomes PostgreSQL's interval, as PostgreSQL has only the one
                SqlNode input = PgIntervals.isInterval(a) ? right : left;
                SqlNode item = PgIntervals.isInterval(a) ? rightItem : leftItem;
                if (item instanceof SqlIntervalLiteral lit && input instanceof SqlSelect select) {
                    coercion.replaceColumn(select, i, PgIntervals.literal(lit), PgIntervals.isInterval(a) ? a : b);
                    continue;
                }
            }
            boolean leftUnknown = leftItem != null && PgTypeCoercion.unknownTyped(leftItem);
            boolean rightUnknown = rightItem != null && PgTypeCoercion.unknownTyped(rightItem);
            if (!leftUnknown && !rightUnknown) {
                if (!PgTypeCoercion.untyped(a) && !PgTypeCoercion.untyped(b) && unmatchable(a, b)) {
                    throw unmatched(
                            setop.getKind().toString(), rightItem != null ? rightItem : right, text(a), text(b));
                }
                if (ownScales(a, b)
                        && left instanceof SqlSelect leftSelect
                        && right instanceof SqlSelect rightSelect
                        && writtenColumn(leftSelect, leftRow, leftItem)
                        && writtenColumn(rightSelect, rightRow, rightItem)) {
                    // numbers of different types or scales: PostgreSQL's NUMERIC keeps each value's own
                    // scale, where Calcite casts both to one (a bigint's 5 printed 5.00)
                    keepColumnScale(leftSelect, i, leftItem);
                    keepColumnScale(rightSelect, i, rightItem);
                }
            } else if (leftUnknown != rightUnknown) {
                RelDataType typed = leftUnknown ? b : a;
                SqlNode constant = leftUnknown ? leftItem : rightItem;
                SqlNode input = leftUnknown ? left : right;
                if (constant instanceof SqlCharStringLiteral
                        && !PgTypeCoercion.untyped(typed)
                        && !SqlTypeUtil.isCharacter(typed)) {
                    coercion.rowTypeCoercion(scopeOf(input), input, i, typed);
                }
            }
        }
    }

    /**
     * Whether PostgreSQL's common type of a set operation's column of types {@code a} and {@code
     * b} is a NUMERIC whose values keep their own scales: both exact numbers, one at least a
     * NUMERIC, of different types or scales.
     */
    private boolean ownScales(RelDataType a, RelDataType b) {
        return SqlTypeUtil.isExactNumeric(a)
                && SqlTypeUtil.isExactNumeric(b)
                && (a.getSqlTypeName() == SqlTypeName.DECIMAL || b.getSqlTypeName() == SqlTypeName.DECIMAL)
                && !SqlTypeUtil.equalSansNullability(factory, a, b);
    }

    /** Whether {@code item} is a select item of its own, not a column of a {@code *} not yet expanded. */
    private static boolean writtenColumn(SqlSelect select, RelDataType row, SqlNode item) {
        return item != null
                && select.getSelectList().size() == row.getFieldCount()
                && !(item instanceof SqlIdentifier id && id.isStar());
    }

    /** Passes column {@code i} of a set operation's input {@code select}, {@code item}, through {@code pg_numeric}. */
    private void keepColumnScale(SqlSelect select, int i, SqlNode item) {
        SqlNode replacement = keepingScale(item);
        RelDataType type = validator.deriveType(validator.getSelectScope(select), replacement);
        coercion.replaceColumn(select, i, replacement, type);
    }

    /** Whether {@code node} holds a parameter ({@code ?} or {@code $n}) anywhere. */
    private static boolean hasParameter(SqlNode node) {
        try {
            node.accept(new org.apache.calcite.sql.util.SqlBasicVisitor<Void>() {
                @Override
                public Void visit(org.apache.calcite.sql.SqlDynamicParam param) {
                    throw org.apache.calcite.util.Util.FoundOne.NULL;
                }
            });
            return false;
        } catch (org.apache.calcite.util.Util.FoundOne found) {
            return true;
        }
    }

    /**
     * PostgreSQL's resolution of each column of a VALUES list of several rows: a string constant
     * takes the type of the column's typed values ({@code VALUES (1), ('2')} is integer), and a
     * typed string beside a typed non-string is 42804 ({@code VALUES types integer and text cannot
     * be matched}); numbers of different types or scales, one a NUMERIC, keep their own scales
     * ({@code VALUES (2.5), (1e10)} prints {@code 10000000000}; Calcite: {@code 10000000000.0}).
     * Calcite's interval constants beside an interval column or string constants become
     * PostgreSQL's intervals ({@link IntervalConstantKinds#besidePgIntervals}). Called by {@link
     * PgValidator} for a VALUES that is a query, not an INSERT's rows.
     *
     * @throws CalciteContextException for a typed string beside a non-string value
     */
    void resolveValues(SqlCall values, SqlValidatorScope scope) {
        List<SqlNode> rows = values.getOperandList();
        if (rows.size() < 2 || !(rows.get(0) instanceof SqlCall first)) {
            return;
        }
        int width = first.operandCount();
        for (SqlNode row : rows) {
            if (!(row instanceof SqlCall call) || call.operandCount() != width) {
                return; // Calcite's error says so
            }
            if (hasParameter(row)) {
                // a parameter inside a cell ($1 + 10) has no type until Calcite infers it from its
                // operator; deriving the cell's type first would refuse the operator (42883)
                return;
            }
        }
        for (int i = 0; i < width; i++) {
            List<IntervalConstantKinds.Slot> slots = new ArrayList<>(rows.size());
            for (SqlNode row : rows) {
                int at = i;
                slots.add(new IntervalConstantKinds.Slot(
                        ((SqlCall) row).operand(i), node -> ((SqlCall) row).setOperand(at, node)));
            }
            // first, as the constants beside an interval column are PostgreSQL's intervals, then the type
            IntervalConstantKinds.besidePgIntervals(slots, node -> validator.deriveType(scope, node), true);
            List<SqlNode> column = new ArrayList<>(rows.size());
            for (SqlNode row : rows) {
                column.add(((SqlCall) row).operand(i));
            }
            RelDataType common = commonType("VALUES", scope, column);
            if (common == null || SqlTypeUtil.isCharacter(common)) {
                continue;
            }
            if (ownScales(scope, column, false)) {
                // numbers of different types or scales: PostgreSQL's NUMERIC keeps each value's own
                for (SqlNode row : rows) {
                    ((SqlCall) row).setOperand(i, keepingScale(((SqlCall) row).operand(i)));
                }
                continue;
            }
            for (SqlNode row : rows) {
                if (((SqlCall) row).operand(i) instanceof SqlCharStringLiteral text) {
                    if (PgIntervals.isInterval(common)) {
                        // no cast makes PostgreSQL's interval: its input function does
                        ((SqlCall) row).setOperand(i, ConstructConstants.interval(text));
                    } else {
                        coercion.coerceOperand(scope, (SqlCall) row, i, common);
                    }
                }
            }
        }
    }

    /**
     * PostgreSQL's resolution of a GREATEST's or LEAST's arguments, as for CASE: a string constant
     * takes the type of the typed arguments ({@code greatest(i, '3')} is integer), and a typed
     * string beside a non-string is 42804 ({@code GREATEST types text and integer cannot be
     * matched}); numbers of different types or scales, one a NUMERIC, keep their own scales as
     * PostgreSQL's NUMERIC result does. Called by {@link PgValidator} before Calcite derives the
     * call's type.
     *
     * @throws CalciteContextException for a typed string beside a non-string argument
     */
    void resolveGreatest(SqlCall call, SqlValidatorScope scope) {
        String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
        RelDataType common = commonType(name, scope, call.getOperandList());
        if (common == null || SqlTypeUtil.isCharacter(common)) {
            return;
        }
        if (ownScales(scope, call.getOperandList(), false)) {
            for (int i = 0; i < call.operandCount(); i++) {
                call.setOperand(i, keepingScale(call.operand(i)));
            }
            return;
        }
        for (int i = 0; i < call.operandCount(); i++) {
            if (call.operand(i) instanceof SqlCharStringLiteral) {
                coercion.coerceOperand(scope, call, i, common);
            }
        }
    }

    /**
     * The expression of column {@code i} of a set operation's input as written, when it is one
     * select item (through WITH and ORDER BY) or a one-row VALUES; null for a set operation, whose
     * columns PostgreSQL has resolved to a type by then.
     */
    private static SqlNode column(SqlNode query, int i) {
        SqlNode node = query;
        while (node instanceof SqlWith || node instanceof SqlOrderBy) {
            node = node instanceof SqlWith with ? with.body : ((SqlOrderBy) node).query;
        }
        SqlNode item = null;
        if (node instanceof SqlSelect select && i < select.getSelectList().size()) {
            item = select.getSelectList().get(i);
        } else if (node.getKind() == SqlKind.VALUES
                && ((SqlCall) node).operandCount() == 1
                && ((SqlCall) node).operand(0) instanceof SqlCall row
                && i < row.operandCount()) {
            item = row.operand(i);
        }
        return item != null && item.getKind() == SqlKind.AS ? ((SqlCall) item).operand(0) : item;
    }

    /**
     * {@code type}, or text for a fixed-length string: a typed column of that type is a set of
     * string constants PostgreSQL has resolved to text ({@code SELECT '1' UNION SELECT '2'}).
     */
    private RelDataType text(RelDataType type) {
        return type.getSqlTypeName() == SqlTypeName.CHAR ? factory.createSqlType(SqlTypeName.VARCHAR) : type;
    }

    /** The scope Calcite's {@link PgTypeCoercion#rowTypeCoercion} coerces a set operation's input in. */
    private SqlValidatorScope scopeOf(SqlNode input) {
        SqlValidatorNamespace namespace = validator.getNamespace(input);
        return namespace instanceof TableConstructorNamespace values ? values.getScope() : validator.getEmptyScope();
    }

    /**
     * The type PostgreSQL's {@code select_common_type} picks for {@code nodes}, which {@code
     * context} (CASE, COALESCE) combines, leaving out string constants, NULLs and parameters: null
     * when none is typed.
     *
     * @throws CalciteContextException at the first typed node whose type category differs from the ones before it
     */
    private RelDataType commonType(String context, SqlValidatorScope scope, List<SqlNode> nodes) {
        RelDataType common = null;
        for (SqlNode node : nodes) {
            if (node == null || PgTypeCoercion.unknownTyped(node) || stringConstant(node)) {
                continue;
            }
            RelDataType type = validator.deriveType(scope, node);
            if (PgTypeCoercion.untyped(type)) {
                continue;
            }
            if (common == null) {
                common = type;
            } else if (unmatchable(common, type)) {
                throw unmatched(context, node, common, type);
            } else {
                RelDataType wider = coercion.getWiderTypeForTwo(common, type, true);
                common = wider == null ? common : wider;
            }
        }
        return common;
    }

    /**
     * Whether {@code sqlCase} is Calcite's rewrite of {@code COALESCE(a, b, c)}: {@code CASE WHEN
     * a IS NOT NULL THEN a WHEN b IS NOT NULL THEN b ELSE c END}, which PostgreSQL resolves and
     * names as the COALESCE the client wrote.
     */
    private static boolean rewrittenCoalesce(SqlCase sqlCase) {
        SqlNodeList whens = sqlCase.getWhenOperands();
        SqlNodeList thens = sqlCase.getThenOperands();
        if (sqlCase.getValueOperand() != null || whens.size() != thens.size()) {
            return false;
        }
        for (int i = 0; i < whens.size(); i++) {
            if (!(whens.get(i) instanceof SqlCall when)
                    || when.getKind() != SqlKind.IS_NOT_NULL
                    || !when.operand(0).equalsDeep(notNullCastRemoved(thens.get(i)), Litmus.IGNORE)) {
                return false;
            }
        }
        return true;
    }

    /**
     * A string constant, also as the last argument of a COALESCE Calcite rewrote, which it wraps
     * in its internal {@code CAST NOT NULL}.
     */
    private static boolean stringConstant(SqlNode node) {
        return notNullCastRemoved(node) instanceof SqlCharStringLiteral;
    }

    /** {@code node} without the {@code CAST NOT NULL} Calcite's COALESCE rewrite wraps around a result. */
    private static SqlNode notNullCastRemoved(SqlNode node) {
        return node instanceof SqlCall call && call.getOperator() == SqlInternalOperators.CAST_NOT_NULL
                ? call.operand(0)
                : node;
    }

    /**
     * Whether PostgreSQL has no common type for values of types {@code a} and {@code b}: they are
     * of different type categories (string, number, date and time, interval, boolean). Other types
     * are left to Calcite.
     */
    private static boolean unmatchable(RelDataType a, RelDataType b) {
        SqlTypeFamily x = category(a);
        SqlTypeFamily y = category(b);
        return x != SqlTypeFamily.ANY && y != SqlTypeFamily.ANY && x != y;
    }

    /** PostgreSQL's type category of {@code type}, as a family; ANY for the types not sorted here. */
    private static SqlTypeFamily category(RelDataType type) {
        if (SqlTypeUtil.isCharacter(type)) {
            return SqlTypeFamily.CHARACTER;
        } else if (SqlTypeUtil.isNumeric(type)) {
            return SqlTypeFamily.NUMERIC;
        } else if (SqlTypeUtil.isBoolean(type)) {
            return SqlTypeFamily.BOOLEAN;
        } else if (PgIntervals.isInterval(type) || SqlTypeUtil.isInterval(type)) {
            return SqlTypeFamily.INTERVAL_DAY_TIME;
        } else if (SqlTypeUtil.isDatetime(type)) {
            return SqlTypeFamily.DATETIME;
        }
        return SqlTypeFamily.ANY;
    }

    /** PostgreSQL's 42804 for {@code context}'s results of types {@code a} and {@code b}, at {@code node}. */
    private static CalciteContextException unmatched(String context, SqlNode node, RelDataType a, RelDataType b) {
        String message = context + " types " + NoMatchingSignature.pgName(a.toString()) + " and "
                + NoMatchingSignature.pgName(b.toString()) + " cannot be matched";
        var pos = node.getParserPosition();
        return new CalciteContextException(
                message,
                new SqlValidatorException(message, null),
                pos.getLineNum(),
                pos.getColumnNum(),
                pos.getEndLineNum(),
                pos.getEndColumnNum());
    }
}

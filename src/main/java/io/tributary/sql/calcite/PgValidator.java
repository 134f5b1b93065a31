package io.tributary.sql.calcite;

import static org.apache.calcite.util.Static.RESOURCE;

import io.tributary.common.TributaryException;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.prepare.CalciteSqlValidator;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.runtime.CalciteException;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUnknownLiteral;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.SqlWithItem;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SelectScope;
import org.apache.calcite.sql.validate.SqlQualified;
import org.apache.calcite.sql.validate.SqlValidatorNamespace;
import org.apache.calcite.sql.validate.SqlValidatorScope;
import org.apache.calcite.util.Util;

/**
 * Calcite's validator, resolving the column types of a UNION, INTERSECT or EXCEPT and of a VALUES
 * list as PostgreSQL does ({@link CommonTypeResolution#resolveSetOperation}, {@link
 * CommonTypeResolution#resolveValues}) before Calcite checks them: a string constant takes the type of
 * the typed values beside it, and a typed string beside a non-string is 42804. Only for a query's
 * own row type: an INSERT's source (a target row type given) is coerced to its columns as Calcite
 * does. GREATEST and LEAST resolve their arguments as CASE does. Made for every validation Tributary runs ({@link PgPrepare}, {@link ViewQueryConverter},
 * {@link DateIntervalSums#validator}); one instance per statement, used by the thread validating it.
 */
final class PgValidator extends CalciteSqlValidator {
    /** Nested derived tables deeper than this are not followed (their column is taken for text). */
    private static final int MAX_DERIVED_DEPTH = 64;

    PgValidator(SqlOperatorTable operators, CalciteCatalogReader reader, JavaTypeFactory types, Config config) {
        super(PgOperatorTable.of(operators), reader, types, config);
    }

    /**
     * A date or timestamp literal is read in the proleptic Gregorian calendar ({@link
     * ProlepticLiterals}), so that {@code DATE '1582-10-10'} is a date as in PostgreSQL; other
     * literals Calcite resolves.
     */
    @Override
    public SqlLiteral resolveLiteral(SqlLiteral literal) {
        if (literal instanceof SqlUnknownLiteral unknown) {
            SqlLiteral proleptic = ProlepticLiterals.resolve(unknown);
            if (proleptic != null) {
                return proleptic;
            }
        }
        return super.resolveLiteral(literal);
    }

    /**
     * Calcite names the arguments of a call to an unknown function by type family ({@code
     * foo(<NUMERIC>, <CHARACTER>)}); PostgreSQL's 42883 names each one's type ({@code foo(integer,
     * unknown)}, a string constant being {@code unknown}), so the signature Calcite's message quotes
     * carries those names for {@link SqlErrors} to give the client. A call with the wrong number
     * of arguments is the same 42883 in PostgreSQL, where Calcite says "Invalid number of
     * arguments" for a function with one signature.
     */
    @Override
    public CalciteException handleUnresolvedFunction(
            SqlCall call, SqlOperator unresolvedFunction, List<RelDataType> argTypes, List<String> argNames) {
        if (!(unresolvedFunction instanceof SqlFunction) || argTypes.size() != call.operandCount()) {
            return super.handleUnresolvedFunction(call, unresolvedFunction, argTypes, argNames);
        }
        StringJoiner signature = new StringJoiner(", ", unresolvedFunction.getName() + "(", ")");
        for (int i = 0; i < argTypes.size(); i++) {
            signature.add("<" + argumentTypeName(call.operand(i), argTypes.get(i)) + ">");
        }
        return newValidationError(call, RESOURCE.validatorUnknownFunction(signature.toString()));
    }

    private static String argumentTypeName(SqlNode argument, RelDataType type) {
        if (PgTypeOf.isStringLiteral(argument)) {
            return "unknown";
        }
        try {
            return PgTypeOf.name(type);
        } catch (TributaryException noSuchColumnType) {
            return NoMatchingSignature.pgName(type.getFullTypeString());
        }
    }

    /** Calcite's rewrites, and a BETWEEN with a string constant bound as two comparisons ({@link ConstructConstants}). */
    @Override
    protected SqlNode performUnconditionalRewrites(SqlNode node, boolean underFrom) {
        SqlNode rewritten = super.performUnconditionalRewrites(node, underFrom);
        SqlNode comparisons = ConstructConstants.betweenAsComparisons(rewritten);
        return comparisons == null ? rewritten : comparisons;
    }

    @Override
    protected void validateNamespace(SqlValidatorNamespace namespace, RelDataType targetRowType) {
        SqlNode node = namespace.getNode();
        if (node != null && targetRowType == unknownType && getTypeCoercion() instanceof PgTypeCoercion pg) {
            SqlKind kind = node.getKind();
            if (kind == SqlKind.UNION || kind == SqlKind.INTERSECT || kind == SqlKind.EXCEPT) {
                pg.commonTypes().resolveSetOperation((SqlCall) node);
            }
        }
        super.validateNamespace(namespace, targetRowType);
    }

    /** A VALUES list (a query, or a FROM item) resolved as PostgreSQL does before Calcite checks it. */
    @Override
    protected void validateValues(SqlCall node, RelDataType targetRowType, SqlValidatorScope scope) {
        if (targetRowType == unknownType && getTypeCoercion() instanceof PgTypeCoercion pg) {
            pg.commonTypes().resolveValues(node, scope);
        }
        super.validateValues(node, targetRowType, scope);
    }

    /**
     * Calcite's type of {@code expr}, its string constants first read as the type of the operands
     * beside them ({@link ConstructConstants}); a GREATEST or LEAST first resolved as PostgreSQL resolves it
     * ({@link DateTimeOperands}, {@link CommonTypeResolution#resolveGreatest}): Calcite finds no type for {@code greatest(i, '3')};
     * a CASE or COALESCE first checked for results of two type categories, which Calcite would
     * take (a date beside an integer), and given its values' own NUMERIC scales ({@link
     * CommonTypeResolution#resolveResults}); a boolean argument of {@code concat} given its own text
     * ({@link PgConcatText}); {@code ^}, {@code power}, {@code log(b, x)} and the one-argument {@code sqrt},
     * {@code exp}, {@code ln}, {@code log} and {@code log10} of numerics sent to {@link
     * PgNumericFunctions} ({@link NumericFunctionCalls}); {@code real} arithmetic beside an exact number made double
     * precision ({@link RealArithmetic}); {@code date_trunc} of a date made one of a timestamptz
     * ({@link PgDateTrunc#truncateDateAsTimestamptz}); a {@code character(n)} argument of a text
     * function or {@code ||} without its trailing blanks ({@link BpcharText}); {@code ||} of two
     * arrays as {@code array_cat} ({@link ArrayFunctions#resolveConcatenation}); a {@code percentile_disc} or {@code mode} key of a type they lack refused; {@link VarianceCalls}' final function over an interval's sums
     * refused as no function ({@link SqlErrors} names the client's aggregate, 42883).
     */
    @Override
    public RelDataType deriveType(SqlValidatorScope scope, SqlNode expr) {
        if (expr instanceof SqlCall call && getValidatedNodeTypeIfKnown(expr) == null) {
            ConstructConstants.resolve(call, operand -> deriveType(scope, operand));
        }
        // before its lookup the call is an unresolved function: known by its name
        if (expr instanceof SqlBasicCall call
                && (call.getOperator().getName().equalsIgnoreCase("GREATEST")
                        || call.getOperator().getName().equalsIgnoreCase("LEAST"))
                && getValidatedNodeTypeIfKnown(expr) == null
                && getTypeCoercion() instanceof PgTypeCoercion pg) {
            if (DateTimeOperands.widen(call, operand -> deriveType(scope, operand))) {
                ConstructConstants.resolve(call, operand -> deriveType(scope, operand));
            }
            pg.commonTypes().resolveGreatest(call, scope);
            return postgresGreatest(scope, call);
        }
        if (expr instanceof SqlBasicCall call && getValidatedNodeTypeIfKnown(expr) == null) {
            PgConcatText.unwrapBoolean(this, scope, call);
            NumericFunctionCalls.resolve(this, scope, call);
            RealArithmetic.widen(this, scope, call);
            PgDateTrunc.truncateDateAsTimestamptz(this, scope, call);
            BpcharText.strip(call, operand -> isCharColumn(scope, operand));
            ArrayFunctions.resolveConcatenation(call, operand -> deriveType(scope, operand));
            refuseZonedDateBin(scope, call);
            checkOrderedSetKey(scope, call);
            JsonArguments.refuseDateTimes(call, operand -> deriveType(scope, operand));
            if (ByteaArguments.textAtByteaPosition(call, operand -> deriveType(scope, operand))) {
                List<RelDataType> types = new ArrayList<>();
                call.getOperandList().forEach(operand -> types.add(deriveType(scope, operand)));
                throw handleUnresolvedFunction(call, call.getOperator(), types, null);
            }
            if (VarianceCalls.isFinal(call.getOperator().getName())) {
                RelDataType sum = deriveType(scope, call.operand(0));
                if (sum.getSqlTypeName() == SqlTypeName.OTHER) {
                    // an interval's (PostgreSQL has no variance of one): the squares, an interval
                    // times an interval, would fail first with Calcite's cast error (42846)
                    throw handleUnresolvedFunction(call, call.getOperator(), List.of(sum), null);
                }
            }
        }
        if ((expr instanceof SqlCase || expr.getKind() == SqlKind.COALESCE)
                && getValidatedNodeTypeIfKnown(expr) == null
                && getTypeCoercion() instanceof PgTypeCoercion pg) {
            pg.commonTypes().resolveResults((SqlCall) expr, scope);
        }
        return super.deriveType(scope, expr);
    }

    /**
     * Whether {@code node} names a {@code character(n)} column: an identifier of type CHAR that
     * {@code scope} resolves to a table, or to a derived table's, WITH query's or (expanded) view's
     * column that is itself such a column, possibly renamed ({@link #isCharField}). A column made
     * of a string constant is CHAR to Calcite too but text in PostgreSQL, which is why the type
     * alone does not tell. False for anything it cannot resolve: validation reports that where it
     * always did.
     */
    private boolean isCharColumn(SqlValidatorScope scope, SqlNode node) {
        try {
            SqlQualified qualified = scope.fullyQualify((SqlIdentifier) node);
            if (qualified.namespace == null || deriveType(scope, node).getSqlTypeName() != SqlTypeName.CHAR) {
                return false;
            }
            if (qualified.namespace.getTable() != null) {
                return true;
            }
            List<String> names = qualified.namespace.getRowType().getFieldNames();
            int field = getCatalogReader().nameMatcher().indexOf(names, Util.last(qualified.suffix()));
            return field >= 0 && isCharField(qualified.namespace, field, 0);
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * Whether field {@code field} of the derived relation {@code namespace} is a table's {@code
     * character(n)} column passed through: the field's select item (past derived tables' column
     * lists, WITH items and WITH bodies) is an identifier, aliased or not, that {@link
     * #isCharColumn} takes in its SELECT's scope. Anything else (a constant, an expression, a set
     * operation, VALUES) is false: PostgreSQL's type of those is not bpchar, or not here.
     */
    private boolean isCharField(SqlValidatorNamespace namespace, int field, int depth) {
        if (depth > MAX_DERIVED_DEPTH) {
            return false;
        }
        SqlValidatorNamespace resolved = namespace.resolve();
        if (resolved.getTable() != null) {
            return true;
        }
        SqlNode node = resolved.getNode();
        SqlNode inner;
        if (node instanceof SqlSelect select) {
            SelectScope selectScope = getRawSelectScope(select);
            List<SqlNode> items = selectScope == null ? null : selectScope.getExpandedSelectList();
            if (items == null || field >= items.size()) {
                return false;
            }
            SqlNode item = items.get(field);
            if (item.getKind() == SqlKind.AS) {
                item = ((SqlCall) item).operand(0);
            }
            return item instanceof SqlIdentifier && isCharColumn(getSelectScope(select), item);
        } else if (node instanceof SqlWithItem withItem) {
            inner = withItem.query;
        } else if (node instanceof SqlWith with) {
            inner = with.body;
        } else if (node != null && node.getKind() == SqlKind.AS) {
            inner = ((SqlCall) node).operand(0);
        } else {
            return false;
        }
        SqlValidatorNamespace next = getNamespace(inner);
        return next != null && next != resolved && isCharField(next, field, depth + 1);
    }

    /**
     * {@code date_bin} of timestamptz values is 0A000: {@link PgDateFunctions#date_bin} bins
     * timestamps, and Calcite would pass it the values' local times in the session's zone and
     * answer a timestamp, where PostgreSQL bins the instants and answers a timestamptz.
     */
    private void refuseZonedDateBin(SqlValidatorScope scope, SqlBasicCall call) {
        if (call.getOperator().getName().equalsIgnoreCase("date_bin") && call.operandCount() == 3) {
            for (int i = 1; i < 3; i++) {
                if (deriveType(scope, call.operand(i)).getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
                    throw new TributaryException(
                            io.tributary.common.SqlState.FEATURE_NOT_SUPPORTED,
                            "date_bin of timestamp with time zone values is not supported yet");
                }
            }
        }
    }

    /**
     * Refuses a {@code percentile_disc} or {@code mode} key {@link PgOrderedSets} has no overload
     * for (dates, times, intervals ...), which Calcite would otherwise convert to a number.
     *
     * @throws io.tributary.common.TributaryException 0A000
     */
    private void checkOrderedSetKey(SqlValidatorScope scope, SqlBasicCall call) {
        String name = call.getOperator().getName();
        if (!name.equalsIgnoreCase(PgOrderedSets.PERCENTILE_DISC) && !name.equalsIgnoreCase(PgOrderedSets.MODE)) {
            return;
        }
        SqlTypeName key = deriveType(scope, call.operand(0)).getSqlTypeName();
        if (!SqlTypeName.NUMERIC_TYPES.contains(key)
                && !SqlTypeName.CHAR_TYPES.contains(key)
                && key != SqlTypeName.BOOLEAN
                && key != SqlTypeName.NULL) {
            throw io.tributary.common.TributaryException.notSupported(IntervalCalls.pgName(name)
                    + " over a value of type " + key.getName().toLowerCase(java.util.Locale.ROOT));
        }
    }

    /**
     * The type of a GREATEST or LEAST call, made PostgreSQL's variant, which skips NULL arguments
     * (by name Calcite resolves BigQuery's, NULL if any argument is). Typed from its operands
     * directly: Calcite's lookup of an already resolved GREATEST by its kind finds no function, as
     * for the copy an ORDER BY by position or alias derives again.
     */
    private RelDataType postgresGreatest(SqlValidatorScope scope, SqlBasicCall call) {
        call.setOperator(
                call.getOperator().getName().equalsIgnoreCase("GREATEST")
                        ? SqlLibraryOperators.GREATEST_PG
                        : SqlLibraryOperators.LEAST_PG);
        RelDataType type = call.getOperator().validateOperands(this, scope.getOperandScope(call), call);
        setValidatedNodeType(call, type);
        return type;
    }
}

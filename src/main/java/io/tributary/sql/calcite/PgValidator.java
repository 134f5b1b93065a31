package io.tributary.sql.calcite;

import static org.apache.calcite.util.Static.RESOURCE;

import io.tributary.common.TributaryException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUnknownLiteral;
import org.apache.calcite.sql.SqlUtil;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.SqlWithItem;
import org.apache.calcite.sql.fun.SqlCase;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SelectScope;
import org.apache.calcite.sql.validate.SqlQualified;
import org.apache.calcite.sql.validate.SqlValidatorNamespace;
import org.apache.calcite.sql.validate.SqlValidatorScope;
import org.apache.calcite.sql.validate.SqlValidatorUtil;
import org.apache.calcite.util.Util;

/**
 * Calcite's validator, resolving the column types of a UNION, INTERSECT or EXCEPT and of a VALUES
 * list as PostgreSQL does ({@link CommonTypeResolution#resolveSetOperation}, {@link
 * CommonTypeResolution#resolveValues}) before Calcite checks them: a string constant takes the type of
 * the typed values beside it, and a typed string beside a non-string is 42804. Only for a query's
 * own row type: an INSERT's source (a target row type given) is coerced to its columns as Calcite
 * does. GREATEST and LEAST resolve their arguments as CASE does, and an {@code ARRAY[...]} of
 * numbers of several scales keeps each element's ({@link CommonTypeResolution#resolveArrayElements};
 * not for a view planned as an earlier build). Made for every validation Tributary runs ({@link
 * PgPrepare}, {@link ViewQueryConverter},
 * {@link DateIntervalSums#validator}); one instance per statement, used by the thread validating it.
 */
final class PgValidator extends CalciteSqlValidator {
    /**
     * Nested derived tables deeper than this are not followed: a column's own name is taken as
     * Calcite's, and {@link CharColumns} takes the column for text.
     */
    static final int MAX_DERIVED_DEPTH = 64;

    /**
     * Expanded select items whose name in Calcite's row type is not PostgreSQL's: a {@code *}'s
     * column that Calcite numbered apart from an earlier one of the same name ({@code id0} for the
     * second {@code id}), or that reads such a numbered column of a derived table; mapped to the
     * column's own name.
     */
    private final Map<SqlNode, String> ownNames = new IdentityHashMap<>();

    /**
     * The column references Calcite's star expansion wrote ({@code s.id0} for a {@code *}), which
     * may name a column by its number; {@link #validateIdentifier} checks only those a client wrote.
     */
    private final Set<SqlNode> expanded = java.util.Collections.newSetFromMap(new IdentityHashMap<>());

    /** The query {@link #validate} last validated, whose columns {@link #ownColumnNames} names. */
    private SqlNode validatedTop;

    /**
     * Whether an {@code ARRAY[...]} of numbers of several scales keeps each element's scale: false
     * only for a view planned as an earlier build ({@link ViewPlanningBuild#pgNumericArrays}), whose
     * constructor Calcite typed with the widest scale, so that its plan is the one its state was built by.
     */
    private final boolean arrayElementScales;

    /**
     * Whether a comparison, containment or overlap of arrays of two number types is refused as in
     * PostgreSQL ({@link ArrayOperandTypes}): false only for a view planned as an earlier build
     * ({@link ViewPlanningBuild#pgArrayOperands}), which compared such arrays.
     */
    private final boolean arrayOperandTypes;

    /**
     * Whether a boolean argument of {@code concat_ws} adds {@code t}/{@code f} as in PostgreSQL
     * ({@link PgConcatText#wrapConcatWsBooleans}): false only for a view planned as an earlier build
     * ({@link ViewPlanningBuild#pgTextEdges}), which added {@code TRUE}/{@code FALSE}.
     */
    private final boolean concatWsBooleans;

    /** A validator as queries and new views validate. */
    PgValidator(SqlOperatorTable operators, CalciteCatalogReader reader, JavaTypeFactory types, Config config) {
        this(operators, reader, types, config, ViewPlanningBuild.CURRENT);
    }

    /** @param build the build whose validation this repeats: {@link #arrayElementScales}, {@link #arrayOperandTypes} */
    PgValidator(
            SqlOperatorTable operators,
            CalciteCatalogReader reader,
            JavaTypeFactory types,
            Config config,
            ViewPlanningBuild build) {
        super(PgOperatorTable.of(operators), reader, types, config);
        this.arrayElementScales = build.pgNumericArrays();
        this.arrayOperandTypes = build.pgArrayOperands();
        this.concatWsBooleans = build.pgTextEdges();
    }

    @Override
    public SqlNode validate(SqlNode topNode) {
        SqlNode validated = super.validate(topNode);
        validatedTop = validated;
        return validated;
    }

    /**
     * The names PostgreSQL gives the columns of the query last validated: Calcite's names but where
     * Calcite numbered a {@code *}'s column apart from another of the same name, whose own name it
     * keeps ({@code SELECT * FROM a JOIN b ON ...} is {@code id, v, id, v}). The numbering is
     * Calcite's star expansion's ({@link #addToSelectList}), recorded as it happens, so a column
     * that is really named {@code id0} keeps that name. Null before a query was validated.
     */
    List<String> ownColumnNames() {
        if (validatedTop == null || !validatedTop.isA(SqlKind.QUERY)) {
            return null;
        }
        SqlValidatorNamespace namespace = getNamespace(validatedTop);
        if (namespace == null) {
            return null;
        }
        List<String> names = new ArrayList<>(namespace.getRowType().getFieldNames());
        for (int i = 0; i < names.size(); i++) {
            names.set(i, ownFieldName(namespace, i, 0));
        }
        return names;
    }

    /**
     * The sources of the columns of the query last validated that come through derived tables
     * ({@link PassedColumns#of}); null before a query was validated or for a statement that is no
     * select.
     */
    List<PassedColumns.Passed> passedColumns() {
        return validatedTop == null || !validatedTop.isA(SqlKind.QUERY) ? null : PassedColumns.of(this, validatedTop);
    }

    /**
     * Calcite's star expansion, with the own name of each column it adds recorded where Calcite's
     * name differs: {@link SqlValidatorUtil#uniquify} numbers a name already in the select list
     * ({@code id0}), and a column of a derived table may carry such a number from its own select list.
     */
    @Override
    protected void addToSelectList(
            List<SqlNode> list,
            Set<String> aliases,
            List<Map.Entry<String, RelDataType>> fieldList,
            SqlNode exp,
            SelectScope scope,
            boolean includeSystemVars) {
        int before = list.size();
        super.addToSelectList(list, aliases, fieldList, exp, scope, includeSystemVars);
        for (int i = before; i < list.size(); i++) {
            expanded.add(SqlUtil.stripAs(list.get(i)));
        }
        if (list.size() == before + 1 && exp instanceof SqlIdentifier id && !id.isStar()) {
            String own = ownName(scope, id);
            String calcites = fieldList.get(fieldList.size() - 1).getKey();
            if (own != null && !own.equals(calcites)) {
                ownNames.put(list.get(before), own);
            }
        }
    }

    /**
     * Calcite's select list, its whole-row references first spelled out ({@link WholeRowReferences}),
     * with a later item of a name the list already has (two written {@code
     * id}s, as in {@code SELECT a.id, b.id}) named apart as Calcite's star expansion would name it
     * ({@code id0}), so that a query over this one reads each column by a name of its own; the item's
     * own name is recorded for {@link #ownColumnNames}, which gives PostgreSQL's two {@code id}s.
     */
    @Override
    protected RelDataType validateSelectList(SqlNodeList selectItems, SqlSelect select, RelDataType targetRowType) {
        SelectScope fromScope = getRawSelectScope(select);
        if (fromScope != null) {
            WholeRowReferences.rewrite(
                    selectItems,
                    fromScope,
                    getCatalogReader().nameMatcher(),
                    (namespace, field) -> ownFieldName(namespace, field, 0));
        }
        RelDataType rowType = super.validateSelectList(selectItems, select, targetRowType);
        SelectScope scope = getRawSelectScope(select);
        List<SqlNode> items = scope == null ? null : scope.getExpandedSelectList();
        if (items != null) {
            for (SqlNode item : items) {
                recordMergedColumnName(item, scope);
            }
        }
        List<String> names = rowType.getFieldNames();
        if (items == null || items.size() != names.size() || Util.isDistinct(names)) {
            return rowType;
        }
        List<String> unique = SqlValidatorUtil.uniquify(names, SqlValidatorUtil.EXPR_SUGGESTER, true);
        List<SqlNode> renamed = new ArrayList<>(items);
        for (int i = 0; i < names.size(); i++) {
            if (!unique.get(i).equals(names.get(i))) {
                SqlNode item = renamed.get(i);
                SqlNode aliased = SqlValidatorUtil.addAlias(SqlUtil.stripAs(item), unique.get(i));
                setValidatedNodeType(aliased, rowType.getFieldList().get(i).getType());
                ownNames.put(aliased, ownNames.getOrDefault(item, names.get(i)));
                renamed.set(i, aliased);
            }
        }
        scope.setExpandedSelectList(renamed);
        if (config().identifierExpansion()) {
            // as Calcite's validateSelectList leaves it: the converter reads the select list
            select.setSelectList(new SqlNodeList(renamed, select.getSelectList().getParserPosition()));
        }
        return getTypeFactory()
                .createStructType(
                        rowType.getFieldList().stream().map(f -> f.getType()).toList(), unique);
    }

    /**
     * Calcite's check of a join, then PostgreSQL's of its common columns ({@link JoinCommonColumns}),
     * which Calcite checks by the names it numbered apart.
     */
    @Override
    protected void validateJoin(SqlJoin join, SqlValidatorScope scope) {
        super.validateJoin(join, scope);
        new JoinCommonColumns(getCatalogReader().nameMatcher(), this::inputColumnNames, this::usingNames).check(join);
    }

    /**
     * Calcite's check of a WHERE clause, after the select's references to a USING or NATURAL join's
     * merged columns are written as Calcite's select list writes them ({@link
     * MergedColumnReferences}); the first clause Calcite validates after the FROM.
     */
    @Override
    protected void validateWhereClause(SqlSelect select) {
        if (select.getFrom() instanceof SqlJoin join) {
            List<String> names = new ArrayList<>();
            for (SqlNode node = join; node instanceof SqlJoin left; node = left.getLeft()) {
                List<String> common = usingNames(left);
                if (common != null) {
                    names.addAll(common);
                }
            }
            SelectScope scope = getRawSelectScope(select);
            if (!names.isEmpty() && scope != null) {
                new MergedColumnReferences(getCatalogReader().nameMatcher(), names, id -> {
                            try {
                                SqlNode merged =
                                        SqlUtil.stripAs(expandSelectExpr(id, scope, select, new java.util.HashMap<>()));
                                return merged.getKind() == SqlKind.COALESCE ? merged : null;
                            } catch (RuntimeException notMerged) {
                                return null;
                            }
                        })
                        .rewrite(select);
            }
        }
        super.validateWhereClause(select);
    }

    /** The own names of the columns of a join input that is not itself a join; null when unknown. */
    private List<String> inputColumnNames(SqlNode input) {
        SqlValidatorNamespace namespace;
        try {
            namespace = getNamespace(input);
        } catch (RuntimeException unregistered) {
            return null;
        }
        if (namespace == null) {
            return null;
        }
        List<String> names = new ArrayList<>();
        for (int i = 0; i < namespace.getRowType().getFieldCount(); i++) {
            names.add(ownFieldName(namespace, i, 0));
        }
        return names;
    }

    /**
     * Gives a USING or NATURAL join's merged column, which Calcite's star expansion wrote as {@code
     * COALESCE(b.k, c.k) AS k0} when an earlier column of the list is named {@code k} too, the own
     * name of the column it merges.
     */
    private void recordMergedColumnName(SqlNode item, SelectScope scope) {
        if (ownNames.containsKey(item)
                || item.getKind() != SqlKind.AS
                || ((SqlCall) item).operand(0).getKind() != SqlKind.COALESCE) {
            return;
        }
        SqlNode first = ((SqlCall) item).operand(0);
        while (first instanceof SqlCall call
                && call.operandCount() > 0
                && (first.getKind() == SqlKind.COALESCE
                        || first.getKind() == SqlKind.CAST
                        || first.getKind() == SqlKind.AS)) {
            String recorded = ownNames.get(first);
            if (recorded != null) {
                ownNames.put(item, recorded);
                return;
            }
            first = call.operand(0);
        }
        // only a merge the star expansion wrote: a client's COALESCE(b.k, c.k) AS k0 is named k0
        if (first instanceof SqlIdentifier id && expanded.contains(id)) {
            String own = ownName(scope, id);
            if (own != null && !own.equals(((SqlIdentifier) ((SqlCall) item).operand(1)).getSimple())) {
                ownNames.put(item, own);
            }
        }
    }

    /**
     * Calcite's check of a column reference, then PostgreSQL's names of a derived table's or WITH
     * query's columns: two columns of one name ({@code SELECT a.id, b.id}) are both {@code id}, so
     * {@code id} is 42702 (ambiguous) where Calcite reads the first, and the number Calcite gave the
     * second ({@code id0}) is no name (42703). References Calcite's star expansion wrote are left
     * alone.
     */
    @Override
    public void validateIdentifier(SqlIdentifier id, SqlValidatorScope scope) {
        super.validateIdentifier(id, scope);
        if (expanded.contains(id) || id.isStar()) {
            return;
        }
        SqlQualified qualified;
        try {
            qualified = scope.fullyQualify(id);
        } catch (RuntimeException unresolved) {
            return;
        }
        if (qualified.namespace == null
                || qualified.suffix().size() != 1
                || qualified.namespace.resolve().getTable() != null) {
            return;
        }
        List<String> names = qualified.namespace.getRowType().getFieldNames();
        org.apache.calcite.sql.validate.SqlNameMatcher matcher =
                getCatalogReader().nameMatcher();
        int field = matcher.indexOf(names, qualified.suffix().get(0));
        if (field < 0) {
            return;
        }
        String own = ownFieldName(qualified.namespace, field, 0);
        if (!matcher.matches(own, names.get(field))) {
            throw newValidationError(
                    id, RESOURCE.columnNotFound(qualified.suffix().get(0)));
        }
        for (int other = 0; other < names.size(); other++) {
            if (other != field && matcher.matches(own, ownFieldName(qualified.namespace, other, 0))) {
                throw newValidationError(id, RESOURCE.columnAmbiguous(own));
            }
        }
    }

    /** The own name of the column {@code id} reads in {@code scope}; null when it does not resolve. */
    private String ownName(SelectScope scope, SqlIdentifier id) {
        try {
            SqlQualified qualified = scope.fullyQualify(id);
            if (qualified.namespace == null) {
                return null;
            }
            List<String> names = qualified.namespace.getRowType().getFieldNames();
            int field = getCatalogReader().nameMatcher().indexOf(names, Util.last(qualified.suffix()));
            return field < 0 ? null : ownFieldName(qualified.namespace, field, 0);
        } catch (RuntimeException unresolved) {
            return null;
        }
    }

    /**
     * The own name of field {@code field} of {@code namespace}: a table's column name; a select's
     * item's as recorded by {@link #addToSelectList}; through derived tables, WITH queries and the
     * first query of a set operation where they pass the name on unchanged; the name given in a
     * column list, or by an alias that names the column, as it is.
     */
    private String ownFieldName(SqlValidatorNamespace namespace, int field, int depth) {
        String calcites = namespace.getRowType().getFieldNames().get(field);
        SqlValidatorNamespace resolved = namespace.resolve();
        if (depth > MAX_DERIVED_DEPTH || resolved.getTable() != null) {
            return calcites;
        }
        SqlNode node = resolved.getNode();
        SqlNode inner;
        if (node instanceof SqlSelect select) {
            SelectScope selectScope = getRawSelectScope(select);
            List<SqlNode> items = selectScope == null ? null : selectScope.getExpandedSelectList();
            return items == null || field >= items.size()
                    ? calcites
                    : ownNames.getOrDefault(items.get(field), calcites);
        } else if (node instanceof SqlWithItem withItem) {
            if (withItem.columnList != null) {
                return calcites;
            }
            inner = withItem.query;
        } else if (node instanceof SqlWith with) {
            inner = with.body;
        } else if (node != null && node.getKind() == SqlKind.AS && ((SqlCall) node).operandCount() == 2) {
            inner = ((SqlCall) node).operand(0);
        } else if (node != null
                && (node.getKind() == SqlKind.UNION
                        || node.getKind() == SqlKind.INTERSECT
                        || node.getKind() == SqlKind.EXCEPT)) {
            inner = ((SqlCall) node).operand(0);
        } else {
            return calcites;
        }
        SqlValidatorNamespace next = getNamespace(inner);
        if (next == null
                || next == resolved
                || field >= next.getRowType().getFieldCount()
                || !next.getRowType().getFieldNames().get(field).equals(calcites)) {
            // a level that names the column itself (UNNEST(...) AS u is u) gives its name
            return calcites;
        }
        return ownFieldName(next, field, depth + 1);
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
     * Calcite's type of {@code expr}, a cast of or to an array first checked and an array's cast to
     * text printed as PostgreSQL prints it ({@link ArrayCasts}), its string constants first read as the type of the operands
     * beside them ({@link ConstructConstants}); a GREATEST or LEAST first resolved as PostgreSQL resolves it
     * ({@link DateTimeOperands}, {@link CommonTypeResolution#resolveGreatest}): Calcite finds no type for {@code greatest(i, '3')};
     * a CASE or COALESCE first checked for results of two type categories, which Calcite would
     * take (a date beside an integer), and given its values' own NUMERIC scales ({@link
     * CommonTypeResolution#resolveResults}); a boolean argument of {@code concat} (and of {@code concat_ws}, unless {@link
     * #concatWsBooleans} is off) given its own text ({@link PgConcatText}); {@code ^}, {@code power}, {@code log(b, x)} and the one-argument {@code sqrt},
     * {@code exp}, {@code ln}, {@code log} and {@code log10} of numerics sent to {@link
     * PgNumericFunctions} ({@link NumericFunctionCalls}); {@code real} arithmetic beside an exact number made double
     * precision ({@link RealArithmetic}), as is a {@code real} cast to an integer type ({@link
     * RealRounding}), as is the argument of {@code variance(DISTINCT r)} and its kin ({@link
     * RealDistinctVariances}); {@code real::numeric} by its own function ({@link RealNumericCasts}); {@code date_trunc} of a date made one of a timestamptz
     * ({@link PgDateTrunc#truncateDateAsTimestamptz}); a {@code character(n)} argument of a text
     * function or {@code ||} without its trailing blanks ({@link BpcharText}); {@code ||} of two
     * arrays as {@code array_cat} ({@link ArrayFunctions#resolveConcatenation}); {@code ||} of a
     * {@code varchar(n)} typed text ({@link VarcharConcatenation}); a {@code percentile_disc} or {@code mode} key of a type they lack refused; {@link VarianceCalls}' final function over an interval's sums
     * refused as no function ({@link SqlErrors} names the client's aggregate, 42883).
     */
    @Override
    public RelDataType deriveType(SqlValidatorScope scope, SqlNode expr) {
        if (expr.getKind() == SqlKind.CAST && getValidatedNodeTypeIfKnown(expr) == null) {
            ArrayCasts.refuseToArray(this, scope, (SqlCall) expr);
            ArrayCasts.printAsText(this, scope, (SqlCall) expr);
        }
        if (expr instanceof SqlCall call && getValidatedNodeTypeIfKnown(expr) == null) {
            if (arrayOperandTypes) {
                // before an array text operand is read as an array (ConstructConstants) and
                // Calcite's coercion casts one array to the other's type
                ArrayOperandTypes.check(this, scope, call);
            }
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
            if (concatWsBooleans) {
                PgConcatText.wrapConcatWsBooleans(this, scope, call);
            }
            NumericFunctionCalls.resolve(this, scope, call);
            RealArithmetic.widen(this, scope, call);
            RealRounding.widen(this, scope, call);
            RealDistinctVariances.widen(this, scope, call);
            RealNumericCasts.resolve(this, scope, call);
            PgDateTrunc.truncateDateAsTimestamptz(this, scope, call);
            TypeOfArguments.resolve(this, scope, call);
            BpcharText.strip(call, operand -> CharColumns.isCharColumn(this, scope, operand));
            ArrayFunctions.resolveConcatenation(call, operand -> deriveType(scope, operand));
            VarcharConcatenation.widen(this, scope, call);
            refuseZonedDateBin(scope, call);
            checkOrderedSetKey(scope, call);
            JsonAggregates.separateArrays(call, operand -> deriveType(scope, operand));
            JsonArguments.writeDateTimesAsText(call, operand -> deriveType(scope, operand));
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
        if (arrayElementScales
                && expr.getKind() == SqlKind.ARRAY_VALUE_CONSTRUCTOR
                && getValidatedNodeTypeIfKnown(expr) == null
                && getTypeCoercion() instanceof PgTypeCoercion pg) {
            pg.commonTypes().resolveArrayElements((SqlCall) expr, scope);
        }
        return super.deriveType(scope, expr);
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

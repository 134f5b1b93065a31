package io.tributary.sql.calcite;

import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.adapter.enumerable.AggAddContext;
import org.apache.calcite.adapter.enumerable.AggContext;
import org.apache.calcite.adapter.enumerable.AggImplementor;
import org.apache.calcite.adapter.enumerable.AggResetContext;
import org.apache.calcite.adapter.enumerable.AggResultContext;
import org.apache.calcite.adapter.enumerable.RexImpTable;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.AggregateFunction;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.schema.ImplementableAggFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.validate.SqlUserDefinedAggFunction;
import org.apache.calcite.util.BuiltInMethod;
import org.apache.calcite.util.Optionality;

/**
 * PostgreSQL's {@code array_agg(x)} in queries, in place of Calcite's: every input row adds an
 * element, a NULL argument a NULL element ({@code {1,NULL,3}}), where Calcite's implementation is
 * strict and skips the row. Over no rows (or no row passing FILTER) the result is NULL, as
 * PostgreSQL's. {@code ORDER BY} inside the call and {@code DISTINCT} are Calcite's (it sorts or
 * de-duplicates the rows before they reach {@link Implementor#implementAdd}). {@link PgArrayCalls}
 * renames each {@code array_agg} call to {@link #NAME} (the statement is printed and parsed again,
 * and Calcite's parser binds {@code array_agg(x ORDER BY y)} to its own aggregate), and {@link
 * PgOperatorTable} resolves that name to {@link #OPERATOR}; the generated code runs on the thread
 * executing the query. The stream planner has no such aggregate: a materialized view refuses it.
 */
final class PgArrayAgg implements AggregateFunction, ImplementableAggFunction {
    /** The name {@link PgArrayCalls} gives every {@code array_agg} call. */
    static final String NAME = "pg_array_agg";

    /** The {@code array_agg} operator: one argument of any type, {@code ORDER BY} allowed inside. */
    static final SqlOperator OPERATOR = new SqlUserDefinedAggFunction(
            new SqlIdentifier(NAME, SqlParserPos.ZERO),
            SqlKind.OTHER_FUNCTION,
            binding -> arrayOf(binding.getTypeFactory(), binding.getOperandType(0)),
            null,
            OperandTypes.operandMetadata(
                    List.of(SqlTypeFamily.ANY),
                    types -> List.of(types.createSqlType(SqlTypeName.ANY)),
                    i -> "x",
                    i -> false),
            new PgArrayAgg(),
            false,
            false,
            Optionality.OPTIONAL);

    private PgArrayAgg() {}

    /** A nullable array whose elements are {@code element} made nullable. */
    private static RelDataType arrayOf(RelDataTypeFactory types, RelDataType element) {
        RelDataType array = types.createArrayType(types.createTypeWithNullability(element, true), -1);
        return types.createTypeWithNullability(array, true);
    }

    @Override
    public RelDataType getReturnType(RelDataTypeFactory typeFactory) {
        // typed per call by the operator's inference; this is only the unbound signature
        return arrayOf(typeFactory, typeFactory.createSqlType(SqlTypeName.ANY));
    }

    @Override
    public List<FunctionParameter> getParameters() {
        return List.of(new FunctionParameter() {
            @Override
            public int getOrdinal() {
                return 0;
            }

            @Override
            public String getName() {
                return "x";
            }

            @Override
            public RelDataType getType(RelDataTypeFactory typeFactory) {
                return typeFactory.createSqlType(SqlTypeName.ANY);
            }

            @Override
            public boolean isOptional() {
                return false;
            }
        });
    }

    @Override
    public AggImplementor getImplementor(boolean windowContext) {
        return new Implementor();
    }

    /** Generates the accumulator code: a list that every row (under FILTER) appends its argument to. */
    private static final class Implementor implements AggImplementor {
        @Override
        public List<Type> getStateType(AggContext info) {
            return List.of(List.class);
        }

        @Override
        public void implementReset(AggContext info, AggResetContext reset) {
            reset.currentBlock()
                    .add(Expressions.statement(
                            Expressions.assign(reset.accumulator().get(0), Expressions.new_(ArrayList.class))));
        }

        @Override
        public void implementAdd(AggContext info, AggAddContext add) {
            Expression append = Expressions.call(
                    add.accumulator().get(0),
                    BuiltInMethod.COLLECTION_ADD.method,
                    Expressions.box(add.arguments().get(0)));
            if (add.rexFilterArgument() == null) {
                add.currentBlock().add(Expressions.statement(append));
                return;
            }
            Expression passes = add.rowTranslator()
                    .translateList(List.of(add.rexFilterArgument()), RexImpTable.NullAs.FALSE)
                    .get(0);
            BlockBuilder then = new BlockBuilder(true, add.currentBlock());
            then.add(Expressions.statement(append));
            add.currentBlock().add(Expressions.ifThen(passes, then.toBlock()));
        }

        @Override
        public Expression implementResult(AggContext info, AggResultContext result) {
            Expression list = result.accumulator().get(0);
            // a copy: a window keeps adding to the accumulator after each row's result is taken
            return Expressions.condition(
                    Expressions.call(list, "isEmpty"),
                    Expressions.constant(null, List.class),
                    Expressions.new_(ArrayList.class, list));
        }
    }
}

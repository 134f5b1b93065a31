package io.tributary.sql.calcite;

import io.tributary.catalog.TableDef;
import io.tributary.common.types.DataType;
import io.tributary.common.types.TypeKind;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The text PostgreSQL's {@code pg_get_constraintdef} gives for a CHECK condition, plain ({@code
 * CHECK ((v > 0))}) and pretty ({@code CHECK (v > 0)}), built from the condition as parsed and the
 * table's column types: PostgreSQL deparses the analysed expression, so constants carry the type
 * they were resolved to ({@code ''::text}, {@code '-1'::integer}), implicit casts show ({@code
 * (n > (0)::numeric)}), BETWEEN is two comparisons and an IN list {@code = ANY (ARRAY[...])}. It
 * covers columns, constants, comparisons, {@code + - * / %}, AND, OR, NOT, IS [NOT] NULL, LIKE,
 * BETWEEN, IN lists and {@code length}, {@code upper}, {@code lower}, {@code abs} over the integer,
 * numeric, double precision, text, varchar, boolean and date types; any other condition is shown as
 * written, in parentheses (a listed deviation). Called by {@link CheckPlanner}; stateless.
 */
final class CheckDeparser {
    private CheckDeparser() {}

    /** @return the plain and the pretty definition */
    static String[] deparse(SqlNode condition, TableDef table, String expression) {
        try {
            Expr e = new Reader(table).read(condition);
            if (e.type().kind() != TypeKind.BOOLEAN) {
                throw new Unsupported();
            }
            return new String[] {
                "CHECK (" + e.text(false, null, false) + ")", "CHECK (" + e.text(true, null, false) + ")"
            };
        } catch (Unsupported e) {
            return new String[] {"CHECK ((" + expression + "))", "CHECK (" + expression + ")"};
        }
    }

    /** A form this deparser does not cover. */
    private static final class Unsupported extends RuntimeException {
        Unsupported() {
            super(null, null, false, false);
        }
    }

    /** A node of the analysed expression. */
    private sealed interface Expr permits Var, Const, Op, Bool, Not, NullTest, Coerce, Func, AnyArray, Unknown {
        DataType type();

        /**
         * @param pretty pretty-printing (parentheses only where precedence needs them)
         * @param parent the enclosing node, null at the top
         * @param left whether this is the parent operator's left operand
         */
        String text(boolean pretty, Expr parent, boolean left);
    }

    private record Var(String name, DataType type) implements Expr {
        @Override
        public String text(boolean pretty, Expr parent, boolean left) {
            return io.tributary.catalog.pg.PgDefinitions.quoteIdent(name);
        }
    }

    /** A constant as PostgreSQL prints it, with its type label when it has one. */
    private record Const(String text, DataType type) implements Expr {
        @Override
        public String text(boolean pretty, Expr parent, boolean left) {
            return text;
        }
    }

    private record Op(String op, Expr l, Expr r, DataType type) implements Expr {
        @Override
        public String text(boolean pretty, Expr parent, boolean left) {
            String body = l.text(pretty, this, true) + " " + op + " " + r.text(pretty, this, false);
            return !pretty || parent != null && !simpleUnder(parent, left) ? "(" + body + ")" : body;
        }

        /** PostgreSQL's {@code isSimpleNode} for an operator under {@code parent}. */
        private boolean simpleUnder(Expr parent, boolean left) {
            if (parent instanceof Bool || parent instanceof Not || parent instanceof Func) {
                return true;
            }
            if (parent instanceof Op p) {
                boolean lo = "+-".contains(op);
                boolean hi = "*/%".contains(op);
                boolean parentLo = "+-".contains(p.op);
                boolean parentHi = "*/%".contains(p.op);
                if (!(lo || hi) || !(parentLo || parentHi)) {
                    return false;
                }
                if (hi && parentLo) {
                    return true;
                }
                return !(lo && parentHi) && left;
            }
            return false;
        }
    }

    private record Bool(String op, List<Expr> args) implements Expr {
        @Override
        public DataType type() {
            return DataType.BOOLEAN;
        }

        @Override
        public String text(boolean pretty, Expr parent, boolean left) {
            List<String> parts = new ArrayList<>();
            for (Expr a : args) {
                parts.add(a.text(pretty, this, false));
            }
            String body = String.join(" " + op + " ", parts);
            boolean simple = parent instanceof Bool b && (op.equals("AND") || b.op.equals("OR"))
                    || parent instanceof Not && op.equals("AND");
            return !pretty || parent != null && !simple ? "(" + body + ")" : body;
        }
    }

    private record Not(Expr arg) implements Expr {
        @Override
        public DataType type() {
            return DataType.BOOLEAN;
        }

        @Override
        public String text(boolean pretty, Expr parent, boolean left) {
            String body = "NOT " + arg.text(pretty, this, false);
            return pretty ? body : "(" + body + ")";
        }
    }

    private record NullTest(Expr arg, boolean not) implements Expr {
        @Override
        public DataType type() {
            return DataType.BOOLEAN;
        }

        @Override
        public String text(boolean pretty, Expr parent, boolean left) {
            String body = arg.text(pretty, this, false) + (not ? " IS NOT NULL" : " IS NULL");
            boolean simple = parent == null || parent instanceof Bool || parent instanceof Not;
            return !pretty || !simple ? "(" + body + ")" : body;
        }
    }

    /** An implicit cast, which PostgreSQL shows: {@code (v)::numeric}, pretty {@code v::numeric}. */
    private record Coerce(Expr arg, DataType type) implements Expr {
        @Override
        public String text(boolean pretty, Expr parent, boolean left) {
            String inner = arg.text(pretty, this, false);
            return (pretty ? inner : "(" + inner + ")") + "::" + type.kind().pgName();
        }
    }

    /** An integer IN list: {@code v = ANY (ARRAY[1, 2])}, parenthesized as an operator. */
    private record AnyArray(Expr value, List<String> items) implements Expr {
        @Override
        public DataType type() {
            return DataType.BOOLEAN;
        }

        @Override
        public String text(boolean pretty, Expr parent, boolean left) {
            String body = value.text(pretty, this, true) + " = ANY (ARRAY[" + String.join(", ", items) + "])";
            boolean simple = parent == null || parent instanceof Bool || parent instanceof Not;
            return !pretty || !simple ? "(" + body + ")" : body;
        }
    }

    private record Func(String name, List<Expr> args, DataType type) implements Expr {
        @Override
        public String text(boolean pretty, Expr parent, boolean left) {
            List<String> parts = new ArrayList<>();
            for (Expr a : args) {
                parts.add(a.text(pretty, this, false));
            }
            return name + "(" + String.join(", ", parts) + ")";
        }
    }

    /** Reads the parsed condition into {@link Expr}s, resolving types as PostgreSQL's analysis does. */
    private static final class Reader {
        private static final Set<String> COMPARISONS = Set.of("=", "<>", "<", ">", "<=", ">=");
        private static final Set<String> ARITHMETIC = Set.of("+", "-", "*", "/", "%");

        private final TableDef table;

        Reader(TableDef table) {
            this.table = table;
        }

        Expr read(SqlNode node) {
            if (node instanceof SqlIdentifier id) {
                int c = table.columnIndex(id.names.get(id.names.size() - 1));
                if (c < 0 || table.columns().get(c).hidden() || id.names.size() > 2) {
                    throw new Unsupported();
                }
                return new Var(
                        table.columns().get(c).name(), table.columns().get(c).type());
            }
            if (node instanceof SqlLiteral literal) {
                return literal(literal, false);
            }
            if (!(node instanceof SqlBasicCall call)) {
                throw new Unsupported();
            }
            SqlKind kind = call.getKind();
            String name = call.getOperator().getName().toUpperCase(Locale.ROOT);
            return switch (kind) {
                case AND, OR -> bool(kind == SqlKind.AND ? "AND" : "OR", call);
                case NOT -> new Not(bool(read(call.operand(0))));
                case IS_NULL, IS_NOT_NULL -> new NullTest(read(call.operand(0)), kind == SqlKind.IS_NOT_NULL);
                case MINUS_PREFIX -> call.operand(0) instanceof SqlNumericLiteral n ? literal(n, true) : fail();
                case BETWEEN -> between(call);
                case LIKE -> name.equals("LIKE") ? binary("~~", read(call.operand(0)), read(call.operand(1))) : fail();
                case IN -> in(call);
                case OTHER_FUNCTION -> function(call);
                default -> {
                    String op = call.getOperator().getName();
                    if (op.equals("!=")) {
                        op = "<>";
                    }
                    if (call.operandCount() != 2 || !(COMPARISONS.contains(op) || ARITHMETIC.contains(op))) {
                        throw new Unsupported();
                    }
                    yield binary(op, read(call.operand(0)), read(call.operand(1)));
                }
            };
        }

        private static Expr fail() {
            throw new Unsupported();
        }

        private static Expr bool(Expr e) {
            if (e.type().kind() != TypeKind.BOOLEAN) {
                throw new Unsupported();
            }
            return e;
        }

        /** {@code a AND b AND c} as one node, as PostgreSQL's grammar flattens a chain of one operator. */
        private Expr bool(String op, SqlCall call) {
            List<Expr> args = new ArrayList<>();
            for (SqlNode operand : call.getOperandList()) {
                Expr e = bool(read(operand));
                // PostgreSQL's grammar flattens a chain of one operator through its left operand only
                if (e instanceof Bool b && b.op.equals(op) && args.isEmpty()) {
                    args.addAll(b.args);
                } else {
                    args.add(e);
                }
            }
            return new Bool(op, args);
        }

        private Expr between(SqlBasicCall call) {
            if (call.getOperator().getName().toUpperCase(Locale.ROOT).contains("NOT")
                    || call.getOperator().getName().toUpperCase(Locale.ROOT).contains(" SYMMETRIC")) {
                throw new Unsupported();
            }
            Expr value = read(call.operand(0));
            return new Bool(
                    "AND",
                    List.of(binary(">=", value, read(call.operand(1))), binary("<=", value, read(call.operand(2)))));
        }

        private Expr in(SqlBasicCall call) {
            Expr value = read(call.operand(0));
            if (!(call.operand(1) instanceof SqlNodeList list) || !integer(value.type())) {
                throw new Unsupported();
            }
            List<String> items = new ArrayList<>();
            for (SqlNode item : list) {
                Expr e = read(item);
                if (!(e instanceof Const c)
                        || c.type().kind() != TypeKind.INTEGER
                        || value.type().kind() == TypeKind.BIGINT) {
                    throw new Unsupported();
                }
                items.add(c.text());
            }
            return new AnyArray(value, items);
        }

        private Expr function(SqlBasicCall call) {
            String name = call.getOperator().getName().toLowerCase(Locale.ROOT);
            if (call.operandCount() != 1) {
                throw new Unsupported();
            }
            Expr arg = read(call.operand(0));
            return switch (name) {
                case "length" -> new Func(name, List.of(toText(arg)), DataType.INTEGER);
                case "upper", "lower" -> new Func(name, List.of(toText(arg)), DataType.TEXT);
                case "abs" ->
                    integer(arg.type()) || arg.type().kind() == TypeKind.NUMERIC
                            ? new Func(name, List.of(arg), arg.type())
                            : fail();
                default -> fail();
            };
        }

        private static Expr toText(Expr e) {
            return switch (e.type().kind()) {
                case TEXT -> e;
                case VARCHAR -> new Coerce(e, DataType.TEXT);
                default -> fail();
            };
        }

        /** A numeric or string constant; a string's type comes from its context ({@link #binary}). */
        private static Expr literal(SqlLiteral literal, boolean negated) {
            if (literal instanceof SqlNumericLiteral n) {
                BigDecimal v = n.getValueAs(BigDecimal.class);
                if (negated) {
                    v = v.negate();
                }
                if (n.isExact() && v.scale() <= 0) {
                    long value = v.longValueExact();
                    boolean int4 = value >= Integer.MIN_VALUE && value <= Integer.MAX_VALUE;
                    String text = Long.toString(value);
                    if (int4) {
                        return new Const(value < 0 ? "'" + text + "'::integer" : text, DataType.INTEGER);
                    }
                    return new Const("'" + text + "'::bigint", DataType.BIGINT);
                }
                if (!n.isExact()) {
                    throw new Unsupported();
                }
                String text = v.toPlainString();
                return new Const(v.signum() < 0 ? "'" + text + "'::numeric" : text, DataType.NUMERIC);
            }
            if (negated) {
                throw new Unsupported();
            }
            if (literal.getTypeName() == SqlTypeName.BOOLEAN) {
                return new Const(Boolean.TRUE.equals(literal.booleanValue()) ? "true" : "false", DataType.BOOLEAN);
            }
            if (literal.getTypeName() == SqlTypeName.CHAR) {
                return new Unknown(literal.getValueAs(String.class));
            }
            throw new Unsupported();
        }

        /** A comparison or arithmetic operator, its operands coerced as PostgreSQL resolves them. */
        private Expr binary(String op, Expr l, Expr r) {
            if (l instanceof Unknown && r instanceof Unknown) {
                throw new Unsupported();
            }
            if (l instanceof Unknown u) {
                l = u.as(r.type());
            }
            if (r instanceof Unknown u) {
                r = u.as(l.type());
            }
            DataType lt = l.type();
            DataType rt = r.type();
            DataType common;
            if (integer(lt) && integer(rt)) {
                common = wider(lt, rt);
            } else if (numericFamily(lt) && numericFamily(rt)) {
                common = lt.kind() == TypeKind.DOUBLE || rt.kind() == TypeKind.DOUBLE
                        ? DataType.DOUBLE
                        : DataType.NUMERIC;
                l = coerce(l, common);
                r = coerce(r, common);
            } else if (text(lt) && text(rt)) {
                common = DataType.TEXT;
                l = coerce(l, common);
                r = coerce(r, common);
            } else if (lt.kind() == rt.kind()
                    && (lt.kind() == TypeKind.BOOLEAN || lt.kind() == TypeKind.DATE)
                    && !ARITHMETIC.contains(op)) {
                common = lt;
            } else {
                throw new Unsupported();
            }
            if (ARITHMETIC.contains(op) && !(integer(common) || common.kind() == TypeKind.NUMERIC)) {
                throw new Unsupported();
            }
            return new Op(op, l, r, ARITHMETIC.contains(op) ? common : DataType.BOOLEAN);
        }

        private static Expr coerce(Expr e, DataType to) {
            if (e.type().kind() == to.kind()) {
                return e;
            }
            if (to.kind() == TypeKind.TEXT && e.type().kind() == TypeKind.VARCHAR) {
                return new Coerce(e, to);
            }
            if ((to.kind() == TypeKind.NUMERIC || to.kind() == TypeKind.DOUBLE)
                    && (integer(e.type()) || e.type().kind() == TypeKind.NUMERIC)) {
                return new Coerce(e, to);
            }
            throw new Unsupported();
        }

        private static boolean integer(DataType t) {
            return t.kind() == TypeKind.SMALLINT || t.kind() == TypeKind.INTEGER || t.kind() == TypeKind.BIGINT;
        }

        private static boolean numericFamily(DataType t) {
            return integer(t) || t.kind() == TypeKind.NUMERIC || t.kind() == TypeKind.DOUBLE;
        }

        private static boolean text(DataType t) {
            return t.kind() == TypeKind.TEXT || t.kind() == TypeKind.VARCHAR;
        }

        private static DataType wider(DataType a, DataType b) {
            return a.kind().ordinal() >= b.kind().ordinal() ? a : b;
        }
    }

    /** A string constant before its context gives it a type. */
    private record Unknown(String value) implements Expr {
        @Override
        public DataType type() {
            throw new Unsupported();
        }

        @Override
        public String text(boolean pretty, Expr parent, boolean left) {
            throw new Unsupported();
        }

        Expr as(DataType type) {
            String quoted = "'" + value.replace("'", "''") + "'";
            return switch (type.kind()) {
                case TEXT, VARCHAR -> new Const(quoted + "::text", DataType.TEXT);
                case DATE ->
                    value.matches("\\d{4}-\\d{2}-\\d{2}") ? new Const(quoted + "::date", DataType.DATE) : fail();
                default -> fail();
            };
        }

        private static Expr fail() {
            throw new Unsupported();
        }
    }
}

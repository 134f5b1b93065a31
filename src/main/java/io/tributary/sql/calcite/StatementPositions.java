package io.tributary.sql.calcite;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Where an error found while planning a statement is in the client's text: the statement as the
 * client sent it, the text Calcite parsed (after the text rewrites, aligned with it by {@link
 * TextShifts}), the parsed tree after Tributary's rewrites ({@link StatementRewrite}), whose nodes
 * keep their parser positions, and the text Calcite validated when that is the rewritten tree
 * written out again (an ad-hoc query a rewrite changed): an error there is found in that text's
 * own tree and carried over, by its path, to the rewritten tree's node. Used on the error path by
 * {@link SqlErrors}, on the planning thread; immutable.
 */
final class StatementPositions {
    private final String client;
    private final String parsed;
    private final SqlNode tree;
    private final String validated;

    /**
     * @param client the text positions count in (the client's statement, or a view's query)
     * @param parsed the text the tree was parsed from
     * @param tree the rewritten tree, null when unknown (positions then count in {@code parsed})
     * @param validated the text Calcite validated when it is {@code tree} written out again; null
     *     when Calcite validated {@code tree} itself or {@code parsed}
     */
    StatementPositions(String client, String parsed, SqlNode tree, String validated) {
        this.client = client;
        this.parsed = parsed;
        this.tree = tree;
        this.validated = validated;
    }

    /** Positions in {@code sql} itself: no rewrite and no tree. */
    static StatementPositions of(String sql) {
        return new StatementPositions(sql, sql, null, null);
    }

    /**
     * These positions for an error in {@code text}, the text Calcite was given to prepare: the tree
     * written out (or with {@code EXPLAIN PLAN FOR} before it, or rewritten once more). Unchanged
     * when there is no tree, or when {@code text} is the parsed text itself.
     */
    StatementPositions validating(String text) {
        if (tree == null || text.equals(parsed)) {
            return this;
        }
        return new StatementPositions(client, parsed, tree, text);
    }

    /**
     * Whether {@code mark} is in the parsed text just before {@code pos}, a position in it, or
     * after the opening parentheses (and blanks) at {@code pos}: the parser's position of a
     * parenthesized expression is its opening parenthesis.
     */
    boolean parsedMarked(SqlParserPos pos, String mark) {
        int at = pos == null ? 0 : SqlErrors.offset(parsed, pos.getLineNum(), pos.getColumnNum()) - 1;
        if (at >= mark.length() && parsed.startsWith(mark, at - mark.length())) {
            return true;
        }
        if (at < 0 || at >= parsed.length() || parsed.charAt(at) != '(') {
            return false;
        }
        while (at < parsed.length() && (parsed.charAt(at) == '(' || Character.isWhitespace(parsed.charAt(at)))) {
            at++;
        }
        return parsed.startsWith(mark, at);
    }

    /** The client's text. */
    String client() {
        return client;
    }

    /** The 1-based client offset of {@code pos}, a position in the parsed text; 0 when unknown. */
    int offset(SqlParserPos pos) {
        if (pos == null) {
            return 0;
        }
        return offset(pos.getLineNum(), pos.getColumnNum());
    }

    /**
     * The 1-based client offset of {@code pos}, a position in the text validated: when that is the
     * tree written out again, of the tree's node found there as for a validation error ({@link
     * #node(CalciteContextException)}), else (no such node: a rewrite of the tree itself) as a
     * position in the parsed text; 0 when unknown.
     */
    int validatedOffset(SqlParserPos pos) {
        SqlNode node = validated == null || pos == null ? null : node(pos);
        return offset(node == null ? pos : node.getParserPosition());
    }

    private int offset(int line, int column) {
        int inParsed = SqlErrors.offset(parsed, line, column);
        return parsed.equals(client)
                ? inParsed
                : TextShifts.between(client, parsed).toClient(inParsed);
    }

    /** The client offset of a parse error in the parsed text. */
    int offset(SqlParseException e) {
        return offset(e.getPos());
    }

    /** The client offset of the node a validation error names; 0 when unknown. */
    int offset(CalciteContextException e) {
        if (validated == null) {
            return offset(e.getPosLine(), e.getPosColumn());
        }
        SqlNode node = node(e);
        return node == null ? 0 : offset(node.getParserPosition());
    }

    /** The node of the rewritten tree that a validation error names ({@link #node(SqlParserPos)}). */
    SqlNode node(CalciteContextException e) {
        return node(new SqlParserPos(e.getPosLine(), e.getPosColumn(), e.getEndPosLine(), e.getEndPosColumn()));
    }

    /**
     * The node of the rewritten tree at {@code e}, a position in the text validated (the node
     * spanning it exactly, or one starting there); null when unknown.
     */
    private SqlNode node(SqlParserPos e) {
        if (tree == null || e.getLineNum() <= 0) {
            return null;
        }
        if (validated == null) {
            return find(tree, e, new ArrayList<>());
        }
        SqlNode written;
        try {
            written = SqlParser.create(validated, CalciteSettings.PARSER).parseStmt();
        } catch (SqlParseException | RuntimeException notParsed) {
            return null;
        }
        List<Integer> path = new ArrayList<>();
        SqlNode found = find(written, e, path);
        if (found == null) {
            return null;
        }
        SqlNode at = tree;
        SqlNode there = written;
        if (written instanceof SqlExplain explain && !(tree instanceof SqlExplain)) {
            // EXPLAIN PLAN FOR <the tree>: the explained query is the first operand
            if (path.isEmpty() || path.get(0) != 0) {
                return null;
            }
            path.remove(0);
            there = explain.getExplicandum();
        }
        for (int index : path) {
            List<SqlNode> ours = children(at);
            List<SqlNode> theirs = children(there);
            if (ours.size() != theirs.size() || index >= ours.size()) {
                return null;
            }
            at = ours.get(index);
            there = theirs.get(index);
            if (at == null || !alike(at, there)) {
                // the text written out does not read back as the tree: no position rather than a wrong one
                return null;
            }
        }
        return at;
    }

    /** The first node under {@code root} that spans the error exactly, else the first starting there. */
    private static SqlNode find(SqlNode root, SqlParserPos e, List<Integer> path) {
        SqlNode exact = search(root, e, true, path);
        // a failed search leaves the path empty
        return exact != null ? exact : search(root, e, false, path);
    }

    /** Depth-first, parents before children; fills {@code path} with the child indexes leading to the node. */
    private static SqlNode search(SqlNode node, SqlParserPos e, boolean exact, List<Integer> path) {
        if (node == null) {
            return null;
        }
        SqlParserPos pos = node.getParserPosition();
        if (pos.getLineNum() == e.getLineNum()
                && pos.getColumnNum() == e.getColumnNum()
                && (!exact
                        || (pos.getEndLineNum() == e.getEndLineNum()
                                && pos.getEndColumnNum() == e.getEndColumnNum()))) {
            return node;
        }
        List<SqlNode> children = children(node);
        for (int i = 0; i < children.size(); i++) {
            path.add(i);
            SqlNode found = search(children.get(i), e, exact, path);
            if (found != null) {
                return found;
            }
            path.remove(path.size() - 1);
        }
        return null;
    }

    /**
     * Whether {@code ours} and {@code theirs} are the same construct: of one kind, or calls of one
     * name (a call a rewrite made with Calcite's operator reads back as a function of that name).
     */
    private static boolean alike(SqlNode ours, SqlNode theirs) {
        if (ours.getKind() == theirs.getKind()) {
            return true;
        }
        return ours instanceof SqlCall a
                && theirs instanceof SqlCall b
                && a.getOperator().getName().equalsIgnoreCase(b.getOperator().getName());
    }

    private static List<SqlNode> children(SqlNode node) {
        if (node instanceof SqlNodeList list) {
            return list.getList();
        }
        if (node instanceof SqlCall call) {
            try {
                return call.getOperandList();
            } catch (UnsupportedOperationException leaf) {
                return List.of();
            }
        }
        return List.of();
    }
}

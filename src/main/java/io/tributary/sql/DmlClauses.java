package io.tributary.sql;

import io.tributary.common.SqlState;
import io.tributary.common.TributaryException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * PostgreSQL's clauses of INSERT, UPDATE and DELETE that Calcite's grammar lacks, cut off the
 * statement before Calcite parses the rest: {@code ON CONFLICT ...}, {@code RETURNING ...} and
 * {@code DEFAULT VALUES}. Called by the Calcite front end on the session's thread; stateless.
 *
 * @param core the statement without the clauses ({@code DEFAULT VALUES} becomes {@code VALUES
 *     (DEFAULT)}), for Calcite
 * @param onConflict the ON CONFLICT clause, or null
 * @param returning the text of the RETURNING list, or null
 * @param defaultValues whether the INSERT said {@code DEFAULT VALUES}
 */
public record DmlClauses(String core, OnConflict onConflict, String returning, boolean defaultValues) {
    /** Statements that may hold one of the clauses; the others are not tokenized. */
    private static final Pattern CANDIDATE =
            Pattern.compile("(?is)^\\s*(insert|update|delete)\\b.*\\b(returning|conflict|default\\s+values)\\b.*");

    /**
     * {@code ON CONFLICT [(columns) | ON CONSTRAINT name] DO NOTHING | DO UPDATE SET c = e, ... [WHERE
     * condition]}.
     *
     * @param columns the conflict target's columns; empty without one
     * @param constraint the constraint named by ON CONSTRAINT, or null
     * @param setColumns DO UPDATE's target columns (empty for DO NOTHING), in order
     * @param setExpressions their expressions' texts
     * @param where DO UPDATE's condition, or null
     */
    public record OnConflict(
            List<String> columns,
            String constraint,
            boolean doNothing,
            List<String> setColumns,
            List<String> setExpressions,
            String where) {}

    /**
     * The clauses of {@code sql}, or null when it has none (or is no INSERT, UPDATE or DELETE).
     *
     * @throws TributaryException 42601 for a malformed clause; 0A000 for a parameter in one, or an
     *     index predicate in the conflict target
     */
    public static DmlClauses split(String sql) {
        if (!CANDIDATE.matcher(sql).matches()) {
            return null;
        }
        List<Token> tokens = Lexer.tokenize(sql);
        boolean insert = tokens.get(0).isWord("insert");
        int conflictAt = -1;
        int returningAt = -1;
        int defaultValuesAt = -1;
        int end = tokens.size() - 1;
        int depth = 0;
        for (int i = 0; i < tokens.size() - 1; i++) {
            Token t = tokens.get(i);
            if (t.isSymbol("(")) {
                depth++;
            } else if (t.isSymbol(")")) {
                depth--;
            } else if (depth == 0) {
                if (t.isSymbol(";")) {
                    end = i;
                    break;
                }
                if (insert
                        && conflictAt < 0
                        && t.isWord("on")
                        && tokens.get(i + 1).isWord("conflict")) {
                    conflictAt = i;
                } else if (returningAt < 0 && t.isWord("returning")) {
                    returningAt = i;
                } else if (insert
                        && defaultValuesAt < 0
                        && conflictAt < 0
                        && t.isWord("default")
                        && tokens.get(i + 1).isWord("values")) {
                    defaultValuesAt = i;
                }
            }
        }
        if (conflictAt < 0 && returningAt < 0 && defaultValuesAt < 0) {
            return null;
        }
        int coreEnd = conflictAt >= 0 ? conflictAt : returningAt >= 0 ? returningAt : end;
        String core;
        if (defaultValuesAt >= 0) {
            if (defaultValuesAt + 2 != coreEnd) {
                throw TokenCursor.syntaxAt(tokens.get(defaultValuesAt + 2));
            }
            core = sql.substring(0, tokens.get(defaultValuesAt).position()) + "VALUES (DEFAULT)";
        } else {
            core = sql.substring(0, tokens.get(coreEnd).position());
        }
        OnConflict conflict = null;
        if (conflictAt >= 0) {
            int conflictEnd = returningAt >= 0 ? returningAt : end;
            conflict = onConflict(sql, tokens.subList(conflictAt + 2, conflictEnd + 1));
        }
        String returning = null;
        if (returningAt >= 0) {
            if (returningAt + 1 >= end) {
                throw TokenCursor.syntaxAt(tokens.get(end));
            }
            checkNoParameters(tokens.subList(returningAt + 1, end), "RETURNING");
            returning = sql.substring(
                            tokens.get(returningAt + 1).position(),
                            tokens.get(end).position())
                    .trim();
        }
        return new DmlClauses(core, conflict, returning, defaultValuesAt >= 0);
    }

    /** After ON CONFLICT; {@code tokens} ends with the token that ends the clause. */
    private static OnConflict onConflict(String sql, List<Token> tokens) {
        checkNoParameters(tokens, "ON CONFLICT");
        int i = 0;
        List<String> columns = new ArrayList<>();
        String constraint = null;
        if (tokens.get(i).isSymbol("(")) {
            i++;
            while (true) {
                Token c = tokens.get(i++);
                if (!c.isIdentifier()) {
                    throw TokenCursor.syntaxAt(c);
                }
                columns.add(c.text());
                if (!tokens.get(i).isSymbol(",")) {
                    break;
                }
                i++;
            }
            expect(tokens.get(i++), ")");
            if (tokens.get(i).isWord("where")) {
                throw TributaryException.notSupported("a WHERE clause in the ON CONFLICT target");
            }
        } else if (tokens.get(i).isWord("on")) {
            i++;
            expectWord(tokens.get(i++), "constraint");
            Token name = tokens.get(i++);
            if (!name.isIdentifier()) {
                throw TokenCursor.syntaxAt(name);
            }
            constraint = name.text();
        }
        expectWord(tokens.get(i++), "do");
        Token action = tokens.get(i++);
        int last = tokens.size() - 1;
        if (action.isWord("nothing")) {
            if (i != last) {
                throw TokenCursor.syntaxAt(tokens.get(i));
            }
            return new OnConflict(columns, constraint, true, List.of(), List.of(), null);
        }
        expectWord(action, "update");
        if (columns.isEmpty() && constraint == null) {
            throw TokenCursor.errorAt(
                    SqlState.SYNTAX_ERROR,
                    "ON CONFLICT DO UPDATE requires inference specification or constraint name",
                    action);
        }
        expectWord(tokens.get(i++), "set");
        List<String> setColumns = new ArrayList<>();
        List<String> setExpressions = new ArrayList<>();
        String where = null;
        while (true) {
            Token col = tokens.get(i++);
            if (col.isSymbol("(")) {
                throw TributaryException.notSupported("multiple-column assignment in ON CONFLICT DO UPDATE");
            }
            if (!col.isIdentifier()) {
                throw TokenCursor.syntaxAt(col);
            }
            expect(tokens.get(i++), "=");
            int from = i;
            int depth = 0;
            while (i < last) {
                Token t = tokens.get(i);
                if (depth == 0 && (t.isSymbol(",") || t.isWord("where"))) {
                    break;
                }
                depth += t.isSymbol("(") ? 1 : t.isSymbol(")") ? -1 : 0;
                i++;
            }
            if (i == from) {
                throw TokenCursor.syntaxAt(tokens.get(i));
            }
            setColumns.add(col.text());
            setExpressions.add(text(sql, tokens, from, i));
            if (tokens.get(i).isSymbol(",")) {
                i++;
                continue;
            }
            if (tokens.get(i).isWord("where")) {
                if (i + 1 >= last) {
                    throw TokenCursor.syntaxAt(tokens.get(last));
                }
                where = text(sql, tokens, i + 1, last);
            }
            break;
        }
        return new OnConflict(columns, constraint, false, setColumns, setExpressions, where);
    }

    private static String text(String sql, List<Token> tokens, int from, int to) {
        return sql.substring(tokens.get(from).position(), tokens.get(to).position())
                .trim();
    }

    private static void expect(Token t, String symbol) {
        if (!t.isSymbol(symbol)) {
            throw TokenCursor.syntaxAt(t);
        }
    }

    private static void expectWord(Token t, String word) {
        if (!t.isWord(word)) {
            throw TokenCursor.syntaxAt(t);
        }
    }

    private static void checkNoParameters(List<Token> tokens, String clause) {
        for (Token t : tokens) {
            if (t.kind() == Token.Kind.PARAM) {
                throw TributaryException.notSupported("parameters in " + clause);
            }
        }
    }
}

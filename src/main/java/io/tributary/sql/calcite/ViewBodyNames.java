package io.tributary.sql.calcite;

import io.tributary.catalog.Catalog;
import io.tributary.catalog.SearchPath;
import io.tributary.common.TributaryException;
import io.tributary.sql.UtilityStatement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.SqlWithItem;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * Binds the unqualified relation names of a stored query (a view's, a materialized view's or a
 * sink's) through the creating session's search path, as PostgreSQL binds a view's names at
 * CREATE: each name the path finds in a schema other than {@code public} gets that schema written
 * before it, so a later {@code search_path} cannot change what the query reads. Names found in
 * {@code public} stay unqualified, which stored queries read in {@code public} (the meaning of
 * records written before relations had schemas). A name the path does not reach but {@code
 * public} holds is qualified with the path's first schema, so it fails with 42P01 as in
 * PostgreSQL. The rest of the text is kept as written. Called on the session's thread while a
 * statement is planned; stateless.
 */
final class ViewBodyNames {
    private ViewBodyNames() {}

    /** {@code statement} with its stored query bound through {@code path}; other statements as they are. */
    static UtilityStatement bind(UtilityStatement statement, Catalog catalog, SearchPath path) {
        if (statement instanceof UtilityStatement.CreateView v) {
            return new UtilityStatement.CreateView(
                    v.name(), v.orReplace(), v.columns(), qualify(v.query(), catalog, path), v.sql());
        }
        if (statement instanceof UtilityStatement.CreateMaterializedView m) {
            return new UtilityStatement.CreateMaterializedView(
                    m.name(), m.ifNotExists(), qualify(m.query(), catalog, path), m.sql(), m.withData());
        }
        if (statement instanceof UtilityStatement.ExplainCreateMaterializedView e) {
            return new UtilityStatement.ExplainCreateMaterializedView(
                    e.name(), qualify(e.query(), catalog, path), e.sql());
        }
        if (statement instanceof UtilityStatement.CreateSink k && k.query() != null) {
            return new UtilityStatement.CreateSink(
                    k.name(), k.ifNotExists(), null, qualify(k.query(), catalog, path), k.options(), k.sql());
        }
        return statement;
    }

    /**
     * {@code query} with a schema written before each unqualified FROM name that {@code path} binds
     * outside {@code public}; the same text when there is none, or when the query does not parse
     * (planning it then reports why).
     *
     * @throws TributaryException 0A000 when a name must be qualified but its place in the text
     *     cannot be found (the query holds PostgreSQL syntax whose rewrite moves text)
     */
    static String qualify(String query, Catalog catalog, SearchPath path) {
        SqlNode node;
        String text = PgSyntaxText.rewrite(query);
        try {
            node = SqlParser.create(text, CalciteSettings.PARSER).parseQuery();
        } catch (SqlParseException | RuntimeException e) {
            return query;
        }
        Set<String> withNames = new HashSet<>();
        List<Insert> inserts = new ArrayList<>();
        node.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call instanceof SqlWith with) {
                    for (SqlNode item : with.withList) {
                        withNames.add(((SqlWithItem) item).name.getSimple());
                    }
                }
                return super.visit(call);
            }
        });
        node.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if (call instanceof SqlSelect select && select.getFrom() != null) {
                    fromItem(select.getFrom());
                }
                return super.visit(call);
            }

            private void fromItem(SqlNode from) {
                if (from instanceof SqlJoin join) {
                    fromItem(join.getLeft());
                    fromItem(join.getRight());
                } else if (from instanceof SqlIdentifier id) {
                    name(id);
                } else if (from.getKind() == SqlKind.AS
                        && from instanceof SqlBasicCall as
                        && as.operand(0) instanceof SqlIdentifier id) {
                    name(id);
                }
            }

            private void name(SqlIdentifier id) {
                if (id.names.size() != 1 || withNames.contains(id.getSimple())) {
                    return;
                }
                String schema = schemaFor(id.getSimple(), catalog, path);
                if (schema != null) {
                    inserts.add(new Insert(offset(text, id.getParserPosition()), schema, id.getSimple()));
                }
            }
        });
        if (inserts.isEmpty()) {
            return query;
        }
        if (!text.equals(query) && text.length() != query.length()) {
            throw TributaryException.notSupported(
                    "a view reading relations of schemas other than public by unqualified names together with"
                            + " interval or array constants (qualify the names)");
        }
        inserts.sort((a, b) -> Integer.compare(b.at(), a.at()));
        StringBuilder out = new StringBuilder(query);
        for (Insert insert : inserts) {
            if (!startsName(query, insert.at(), insert.name())) {
                throw TributaryException.notSupported("a view reading relation \"" + insert.name()
                        + "\" by an unqualified name written this way" + " (qualify it with its schema)");
            }
            out.insert(insert.at(), quote(insert.schema()) + ".");
        }
        return out.toString();
    }

    /** Where a schema goes: before the name at offset {@code at}. */
    private record Insert(int at, String schema, String name) {}

    /**
     * The schema to write before unqualified {@code name}, or null to leave it: the schema of the
     * first relation or view the path finds when that is not {@code public}; the path's first
     * schema when the path finds none but {@code public} holds one (so it stays not found).
     */
    private static String schemaFor(String name, Catalog catalog, SearchPath path) {
        for (String schema : path.explicit()) {
            String key = Catalog.key(schema, name);
            if (catalog.table(key).isPresent() || catalog.view(key).isPresent()) {
                return schema.equals(Catalog.SCHEMA) ? null : schema;
            }
        }
        boolean inPublic = catalog.table(name).isPresent() || catalog.view(name).isPresent();
        String first = path.current();
        return inPublic && first != null && !first.equals(Catalog.SCHEMA) ? first : null;
    }

    /** Whether the text at {@code at} is {@code name}, plain or quoted, case aside. */
    private static boolean startsName(String text, int at, String name) {
        if (at < 0 || at >= text.length()) {
            return false;
        }
        if (text.charAt(at) == '"') {
            return text.startsWith(name.replace("\"", "\"\""), at + 1);
        }
        return text.regionMatches(true, at, name, 0, name.length());
    }

    /** The offset in {@code text} of the parser's line and column (both from 1). */
    private static int offset(String text, SqlParserPos pos) {
        int at = 0;
        for (int line = 1; line < pos.getLineNum(); line++) {
            int nl = text.indexOf('\n', at);
            if (nl < 0) {
                return -1;
            }
            at = nl + 1;
        }
        return at + pos.getColumnNum() - 1;
    }

    private static String quote(String name) {
        return io.tributary.catalog.pg.PgDefinitions.quoteIdent(name);
    }
}

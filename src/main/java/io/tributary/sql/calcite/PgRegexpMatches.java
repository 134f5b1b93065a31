package io.tributary.sql.calcite;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL's set-returning {@code regexp_matches(string, pattern [, flags])}: one row per match
 * (every match with the flag {@code g}, else the first), its one column {@code regexp_matches}
 * the text array of the match's capturing groups, or of the whole match when the pattern has none;
 * no rows when nothing matches or an argument is NULL. {@link CatalogSchema#registerFunctions}
 * registers both forms as Calcite table functions; Calcite calls them by reflection while planning
 * (constants or nulls) for the row type, and in the generated code, on the query's thread, for the
 * rows. The parameters are text, so that {@link PgTypeCoercion} refuses a number (42883) as
 * PostgreSQL does. {@link SelectListSetFunctions} moves a call in a select list into FROM.
 */
public final class PgRegexpMatches {
    /** The function's name, which is also its column's. */
    static final String NAME = "regexp_matches";

    private PgRegexpMatches() {}

    /** {@code regexp_matches(s, pattern)}: the first match. */
    public static ScannableTable regexp_matches(String s, String pattern) {
        return regexp_matches(s, pattern, null);
    }

    /**
     * {@code regexp_matches(s, pattern, flags)}.
     *
     * @throws io.tributary.common.TributaryException 2201B for a bad pattern, 22023 for a bad flag
     */
    public static ScannableTable regexp_matches(String s, String pattern, String flags) {
        List<Object[]> rows = new ArrayList<>();
        if (s != null && pattern != null) {
            boolean global = flags != null && flags.indexOf('g') >= 0;
            Matcher m = PgRegexPatterns.compile(pattern, global ? flags.replace("g", "") : flags)
                    .matcher(s);
            while (m.find()) {
                rows.add(new Object[] {groups(m)});
                if (!global) {
                    break;
                }
            }
        }
        return new Rows(rows);
    }

    /** The match's capturing groups (a group that took no part is NULL), or the match alone. */
    private static List<String> groups(Matcher m) {
        int count = m.groupCount();
        if (count == 0) {
            return List.of(m.group());
        }
        String[] out = new String[count];
        for (int g = 1; g <= count; g++) {
            out[g - 1] = m.group(g);
        }
        return Arrays.asList(out);
    }

    /** One call's rows, computed when called; immutable, scanned as often as the plan asks. */
    private static final class Rows extends AbstractTable implements ScannableTable {
        private final List<Object[]> rows;

        Rows(List<Object[]> rows) {
            this.rows = rows;
        }

        @Override
        public RelDataType getRowType(RelDataTypeFactory typeFactory) {
            RelDataType text =
                    typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.VARCHAR), true);
            return typeFactory.builder().add(NAME, new TextArrayType(text)).build();
        }

        @Override
        public Enumerable<Object[]> scan(DataContext root) {
            return Linq4j.asEnumerable(rows);
        }
    }
}

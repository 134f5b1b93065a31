package io.tributary.sql.calcite;

import java.util.Properties;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.babel.SqlBabelParserImpl;
import org.apache.calcite.sql.validate.SqlConformanceEnum;

/**
 * The one Calcite configuration both query paths use, so a view's query means what the same
 * SELECT means: Babel's grammar (PostgreSQL's {@code ::} casts), identifiers folded to lower case,
 * the standard, PostgreSQL and BigQuery function libraries, UTC, NULLs sorting high, PostgreSQL's
 * typing rules ({@link TributaryTypeSystem}).
 */
final class CalciteSettings {
    static final SqlParser.Config PARSER = SqlParser.config()
            .withParserFactory(SqlBabelParserImpl.FACTORY)
            .withConformance(SqlConformanceEnum.LENIENT)
            .withQuoting(Quoting.DOUBLE_QUOTE)
            .withUnquotedCasing(Casing.TO_LOWER)
            .withQuotedCasing(Casing.UNCHANGED)
            .withCaseSensitive(false);

    private CalciteSettings() {}

    /** Calcite connection properties matching {@link #PARSER}; a fresh copy per caller. */
    static Properties connectionProperties() {
        Properties props = new Properties();
        props.setProperty("parserFactory", SqlBabelParserImpl.class.getName() + "#FACTORY");
        props.setProperty("conformance", "LENIENT");
        props.setProperty("quoting", "DOUBLE_QUOTE");
        props.setProperty("unquotedCasing", "TO_LOWER");
        props.setProperty("quotedCasing", "UNCHANGED");
        props.setProperty("caseSensitive", "false");
        props.setProperty("fun", "standard,postgresql,bigquery");
        props.setProperty("timeZone", "UTC");
        props.setProperty("defaultNullCollation", "HIGH");
        props.setProperty("typeSystem", TributaryTypeSystem.class.getName() + "#INSTANCE");
        return props;
    }
}

package io.kafkamv.compiler.parser;

import java.util.Properties;

import io.kafkamv.compiler.types.PostgresTypeSystem;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.config.CalciteConnectionProperty;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.validate.SqlConformanceEnum;

/**
 * How kafka-mv reads SQL: as PostgreSQL does. Unquoted names fold to lower case, quoted names
 * keep their case, and strings use single quotes.
 *
 * <p>The compiler and the query engine both take their settings from here, so a name means the
 * same thing in {@code CREATE MATERIALIZED VIEW} and in {@code SELECT}.
 */
public final class SqlDialect {

    private static final Casing UNQUOTED_CASING = Casing.TO_LOWER;
    private static final Casing QUOTED_CASING = Casing.UNCHANGED;
    private static final Quoting QUOTING = Quoting.DOUBLE_QUOTE;
    private static final SqlConformanceEnum CONFORMANCE = SqlConformanceEnum.LENIENT;

    private SqlDialect() {
    }

    public static SqlParser.Config parserConfig() {
        return SqlParser.config()
            .withParserFactory(KafkaMvParser.FACTORY)
            .withUnquotedCasing(UNQUOTED_CASING)
            .withQuotedCasing(QUOTED_CASING)
            .withQuoting(QUOTING)
            .withCaseSensitive(true)
            .withConformance(CONFORMANCE);
    }

    /** The same settings as properties of a Calcite JDBC connection. */
    public static Properties connectionProperties() {
        Properties properties = new Properties();
        properties.setProperty(CalciteConnectionProperty.UNQUOTED_CASING.camelName(), UNQUOTED_CASING.name());
        properties.setProperty(CalciteConnectionProperty.QUOTED_CASING.camelName(), QUOTED_CASING.name());
        properties.setProperty(CalciteConnectionProperty.QUOTING.camelName(), QUOTING.name());
        properties.setProperty(CalciteConnectionProperty.CASE_SENSITIVE.camelName(), "true");
        properties.setProperty(CalciteConnectionProperty.CONFORMANCE.camelName(), CONFORMANCE.name());
        properties.setProperty(CalciteConnectionProperty.FUN.camelName(), "standard,postgresql");
        properties.setProperty(CalciteConnectionProperty.TYPE_SYSTEM.camelName(),
            PostgresTypeSystem.class.getName() + "#INSTANCE");
        properties.setProperty(CalciteConnectionProperty.PARSER_FACTORY.camelName(),
            KafkaMvParser.class.getName() + "#FACTORY");
        return properties;
    }
}

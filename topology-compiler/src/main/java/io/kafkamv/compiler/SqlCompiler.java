package io.kafkamv.compiler;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.kafkamv.compiler.catalog.Catalog;
import io.kafkamv.compiler.catalog.Relation;
import io.kafkamv.compiler.error.CompileException;
import io.kafkamv.compiler.parser.SqlCreateIndex;
import io.kafkamv.compiler.parser.SqlCreateMaterializedView;
import io.kafkamv.compiler.parser.SqlCreateSink;
import io.kafkamv.compiler.parser.SqlStatementParser;
import io.kafkamv.compiler.plan.IndexOutput;
import io.kafkamv.compiler.plan.PhysicalPlan;
import io.kafkamv.compiler.planner.ViewPlanner;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlWriterConfig;
import org.apache.calcite.sql.dialect.PostgresqlSqlDialect;
import org.apache.calcite.sql.pretty.SqlPrettyWriter;

/**
 * SQL in, plans out: validates statements against a catalog and compiles views into physical
 * plans. Pure: no network, no state beyond its arguments.
 */
public final class SqlCompiler {

    private final Catalog catalog;
    private final int exchangePartitions;

    /**
     * @param exchangePartitions how many partitions a view re-keys rows into where it must (joins);
     *                           fixed in each plan, so it only applies to views compiled from now on
     */
    public SqlCompiler(Catalog catalog, int exchangePartitions) {
        if (exchangePartitions < 1) {
            throw new IllegalArgumentException("exchangePartitions must be positive");
        }
        this.catalog = catalog;
        this.exchangePartitions = exchangePartitions;
    }

    /**
     * Compiles {@code CREATE MATERIALIZED VIEW}; the job id names the view's topic so that a name can
     * be reused at once after a drop, while the old topic is still being deleted.
     */
    public CompiledView compileView(SqlCreateMaterializedView statement, String statementText, long jobId) {
        String name = statement.name().getSimple();
        // Validation rewrites the tree in place (expanding *, qualifying names): take the text first.
        String normalized = normalize(statement);
        Map<String, Relation> relations = new LinkedHashMap<>();
        catalog.relations().forEach(relation -> relations.put(relation.name(), relation));
        PhysicalPlan plan = new ViewPlanner(relations, exchangePartitions).plan(name, statement.query(),
            statementText, TopicNames.of("view", name, String.valueOf(jobId)), "rows");
        Relation relation = Relation.view(name, plan);
        return new CompiledView(relation, plan, normalized);
    }

    /**
     * Compiles {@code CREATE SINK}: the query (or all of the view it names) planned as a view is, its
     * rows written to a Kafka topic as the options say.
     */
    public CompiledSink compileSink(SqlCreateSink statement, String statementText, long jobId) {
        String name = statement.name().getSimple();
        String normalized = normalize(statement);
        SqlNode query = statement.query().orElseGet(() -> selectAll(statement.from().orElseThrow()));
        Map<String, Relation> relations = new LinkedHashMap<>();
        catalog.relations().forEach(relation -> relations.put(relation.name(), relation));
        String internalTopic = TopicNames.of("sink", name, String.valueOf(jobId));
        PhysicalPlan plan = new ViewPlanner(relations, exchangePartitions).plan(name, query, statementText,
            internalTopic, null);
        return new CompiledSink(name, plan.writtenTo(SinkOptions.read(statement.options(), plan, internalTopic)),
            normalized);
    }

    /**
     * Compiles {@code CREATE INDEX name ON relation (columns)}: the relation's rows, kept by the
     * indexed columns' values for lookups by them.
     */
    public CompiledIndex compileIndex(SqlCreateIndex statement, String statementText, long jobId) {
        String name = statement.name().getSimple();
        String normalized = normalize(statement);
        String on = statement.on().getSimple();
        Relation relation = catalog.relation(on).orElseThrow(() -> new CompileException(
            CompileException.Category.UNKNOWN_OBJECT, "relation \"" + on + "\" does not exist",
            CompileException.positionOf(statementText, statement.on().getParserPosition()), null));
        List<Integer> columns = new java.util.ArrayList<>();
        for (SqlNode column : statement.columns()) {
            String columnName = ((SqlIdentifier) column).getSimple();
            int position = relation.schema().columns().stream().map(c -> c.name()).toList().indexOf(columnName);
            if (position < 0) {
                throw new CompileException(CompileException.Category.UNKNOWN_COLUMN,
                    "column \"" + columnName + "\" does not exist in " + on,
                    CompileException.positionOf(statementText, column.getParserPosition()), null);
            }
            columns.add(position);
        }
        Map<String, Relation> relations = new LinkedHashMap<>();
        catalog.relations().forEach(r -> relations.put(r.name(), r));
        PhysicalPlan plan = new ViewPlanner(relations, exchangePartitions).plan(name,
            selectAll(statement.on()), statementText, null, null);
        return new CompiledIndex(name, on, plan.indexedBy(new IndexOutput(on, columns, exchangePartitions)), normalized);
    }

    private static SqlNode selectAll(SqlIdentifier from) {
        return SqlStatementParser.parse("SELECT * FROM \"" + from.getSimple().replace("\"", "\"\"") + "\"");
    }

    /**
     * EXPLAIN: the logical plan Calcite chose, the physical plan kafka-mv would store, and the
     * Kafka Streams topology built from it. A query is explained as the view it would make.
     */
    public String explain(SqlNode statement, String statementText) {
        SqlCreateMaterializedView view = statement instanceof SqlCreateMaterializedView create ? create
            : new SqlCreateMaterializedView(statement.getParserPosition(), false,
                new org.apache.calcite.sql.SqlIdentifier("explained", statement.getParserPosition()), statement);
        String name = view.name().getSimple();
        Map<String, Relation> relations = new LinkedHashMap<>();
        catalog.relations().forEach(relation -> relations.put(relation.name(), relation));
        ViewPlanner.Planned planned = new ViewPlanner(relations, exchangePartitions).planAndExplain(name, view.query(), statementText,
            TopicNames.of("view", name, "<job id>"), "rows");
        return "Logical plan:\n" + planned.logicalPlan()
            + "\nPhysical plan:\n" + io.kafkamv.compiler.plan.PlanJson.toJson(planned.plan())
            + "\n\nTopology:\n" + io.kafkamv.compiler.topology.TopologyFactory.build(planned.plan()).describe();
    }

    /** A statement as SHOW JOBS shows it: keywords in capitals, on one line, names quoted only when needed. */
    public static String normalize(SqlNode statement) {
        SqlWriterConfig config = SqlPrettyWriter.config()
            .withDialect(PostgresqlSqlDialect.DEFAULT)
            .withQuoteAllIdentifiers(false)
            .withAlwaysUseParentheses(false)
            .withSelectListItemsOnSeparateLines(false)
            .withUpdateSetListNewline(false)
            .withIndentation(0)
            .withClauseStartsLine(false)
            .withClauseEndsLine(false)
            .withKeywordsLowerCase(false);
        return new SqlPrettyWriter(config).format(statement).replaceAll("\\s+", " ").trim();
    }
}

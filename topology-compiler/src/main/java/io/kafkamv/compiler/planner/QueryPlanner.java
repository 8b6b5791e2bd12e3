package io.kafkamv.compiler.planner;

import java.util.List;
import java.util.Map;

import io.kafkamv.compiler.error.CalciteErrors;
import io.kafkamv.compiler.functions.KafkaMvFunctions;
import io.kafkamv.compiler.parser.SqlDialect;
import io.kafkamv.compiler.parser.SqlStatementParser;
import io.kafkamv.compiler.postgres.PostgresValidator;
import io.kafkamv.compiler.types.CalciteTypes;
import io.kafkamv.compiler.types.PostgresTypeSystem;
import io.kafkamv.connectors.schema.RowSchema;
import org.apache.calcite.config.CalciteConnectionConfigImpl;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.plan.ConventionTraitDef;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.plan.volcano.VolcanoPlanner;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.schema.TemporalTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.fun.SqlLibrary;
import org.apache.calcite.sql.fun.SqlLibraryOperatorTableFactory;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql2rel.RelDecorrelator;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import org.apache.calcite.sql2rel.StandardConvertletTable;

/**
 * Validates a query against named row types and turns it into relational algebra, with a short,
 * fixed list of rewrites: subqueries become joins, UNION, INTERSECT and EXCEPT become aggregates over UNION ALL, filters move into and below
 * joins, expressions in join conditions become columns of the join's inputs, and filters and
 * projections are merged into one {@code Calc} per run of them.
 *
 * <p>The compiler plans views with it over the catalog; the topology builder plans each stored
 * {@code CalcStep} with it over that step's input, so both read SQL the same way.
 */
public final class QueryPlanner {

    /** Subqueries in WHERE, SELECT and ON become joins (with aggregates), decorrelated afterwards. */
    private static final HepProgram SUBQUERIES = new HepProgramBuilder()
        .addRuleInstance(CoreRules.FILTER_SUB_QUERY_TO_CORRELATE)
        .addRuleInstance(CoreRules.PROJECT_SUB_QUERY_TO_CORRELATE)
        .addRuleInstance(CoreRules.JOIN_SUB_QUERY_TO_CORRELATE)
        .build();

    private static final HepProgram REWRITES = new HepProgramBuilder()
        .addRuleInstance(CoreRules.UNION_TO_DISTINCT)
        .addRuleInstance(CoreRules.INTERSECT_TO_DISTINCT)
        .addRuleInstance(CoreRules.MINUS_TO_DISTINCT)
        .addRuleInstance(CoreRules.FILTER_INTO_JOIN)
        .addRuleInstance(CoreRules.JOIN_CONDITION_PUSH)
        .addRuleInstance(CoreRules.JOIN_PUSH_EXPRESSIONS)
        .addRuleInstance(CoreRules.PROJECT_TO_LOGICAL_PROJECT_AND_WINDOW)
        .addRuleInstance(CoreRules.PROJECT_REMOVE)
        .addRuleInstance(CoreRules.PROJECT_MERGE)
        .addRuleInstance(CoreRules.FILTER_MERGE)
        .addRuleInstance(CoreRules.PROJECT_TO_CALC)
        .addRuleInstance(CoreRules.FILTER_TO_CALC)
        .addRuleInstance(CoreRules.CALC_MERGE)
        .addRuleInstance(CoreRules.CALC_REMOVE)
        .build();

    private final JavaTypeFactoryImpl typeFactory = new JavaTypeFactoryImpl(PostgresTypeSystem.INSTANCE);
    private final CalciteSchema schema = CalciteSchema.createRootSchema(false, false);
    private final RexBuilder rexBuilder = new RexBuilder(typeFactory);

    /** A planner that knows these relations by name. */
    public QueryPlanner(Map<String, RowSchema> relations) {
        relations.forEach((name, rowSchema) -> schema.add(name, new SchemaTable(rowSchema)));
        KafkaMvFunctions.addTo(schema.plus());
        io.kafkamv.compiler.types.CalciteTypes.addPostgresNames(schema.plus());
    }

    public RelDataTypeFactory typeFactory() {
        return typeFactory;
    }

    public RexBuilder rexBuilder() {
        return rexBuilder;
    }

    /**
     * Validates a query parsed from {@code statementText} and returns its optimized relational form.
     * Errors point into {@code statementText}.
     */
    public RelNode plan(SqlNode query, String statementText) {
        CalciteCatalogReader catalogReader = new CalciteCatalogReader(schema, List.of(), typeFactory,
            new CalciteConnectionConfigImpl(SqlDialect.connectionProperties()));
        SqlOperatorTable operators = SqlOperatorTables.chain(
            SqlStdOperatorTable.instance(),
            SqlLibraryOperatorTableFactory.INSTANCE.getOperatorTable(SqlLibrary.POSTGRESQL),
            catalogReader);
        SqlValidator validator = new PostgresValidator(operators, catalogReader, typeFactory,
            SqlValidator.Config.DEFAULT
                .withConformance(SqlDialect.parserConfig().conformance())
                .withIdentifierExpansion(true));
        SyntaxRewrites.apply(query, statementText);
        SqlNode validated;
        try {
            validated = validator.validate(query);
        } catch (CalciteContextException e) {
            throw CalciteErrors.translate(e, statementText);
        }
        VolcanoPlanner volcano = new VolcanoPlanner();
        volcano.addRelTraitDef(ConventionTraitDef.INSTANCE);
        RelOptCluster cluster = RelOptCluster.create(volcano, rexBuilder);
        SqlToRelConverter converter = new SqlToRelConverter((rowType, queryString, schemaPath, viewPath) -> {
            throw new UnsupportedOperationException("views are expanded by the compiler, not by Calcite");
        }, validator, catalogReader, cluster, StandardConvertletTable.INSTANCE,
            SqlToRelConverter.config().withTrimUnusedFields(true).withExpand(false));
        RelRoot root = converter.convertQuery(validated, false, true);
        HepPlanner subqueries = new HepPlanner(SUBQUERIES);
        subqueries.setRoot(root.project());
        RelNode decorrelated = RelDecorrelator.decorrelateQuery(subqueries.findBestExp(),
            RelFactories.LOGICAL_BUILDER.create(cluster, null));
        HepPlanner hep = new HepPlanner(REWRITES);
        hep.setRoot(decorrelated);
        return hep.findBestExp();
    }

    /** Plans SQL text, e.g. a stored step; errors point into that text. */
    public RelNode plan(String sql) {
        return plan(SqlStatementParser.parse(sql), sql);
    }

    /**
     * A table known only by its row type: enough to validate and plan, nothing to scan. Temporal, so that
     * Calcite accepts {@code FOR SYSTEM_TIME AS OF} on it (a lookup join): it asks only whether a table is;
     * the period's column names are never read.
     */
    private static final class SchemaTable extends AbstractTable implements TemporalTable {
        private final RowSchema rowSchema;

        SchemaTable(RowSchema rowSchema) {
            this.rowSchema = rowSchema;
        }

        @Override
        public RelDataType getRowType(RelDataTypeFactory factory) {
            return CalciteTypes.rowType(rowSchema, factory);
        }

        @Override
        public String getSysStartFieldName() {
            return "";
        }

        @Override
        public String getSysEndFieldName() {
            return "";
        }
    }
}

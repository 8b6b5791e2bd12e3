package io.kafkamv.compiler.planner;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.kafkamv.compiler.catalog.Relation;
import io.kafkamv.compiler.plan.PhysicalPlan;
import io.kafkamv.compiler.plan.PlanStep;
import io.kafkamv.connectors.schema.RowSchema;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.sql.SqlNode;

/** Plans a view's query over the catalog's relations into a physical plan. */
public final class ViewPlanner {

    private final Map<String, Relation> relations;
    private final int exchangePartitions;

    /** @param exchangePartitions how many partitions the exchanges of joins use */
    public ViewPlanner(Map<String, Relation> relations, int exchangePartitions) {
        this.relations = relations;
        this.exchangePartitions = exchangePartitions;
    }

    public PhysicalPlan plan(String view, SqlNode query, String statementText, String outputTopic, String store) {
        return planAndExplain(view, query, statementText, outputTopic, store).plan();
    }

    /** A plan and the optimized relational algebra it came from, for EXPLAIN. */
    public record Planned(PhysicalPlan plan, String logicalPlan) {
    }

    public Planned planAndExplain(String view, SqlNode query, String statementText, String outputTopic, String store) {
        Map<String, RowSchema> schemas = new LinkedHashMap<>();
        relations.forEach((name, relation) -> schemas.put(name, relation.schema()));
        // Names come from the query as written: validation rewrites it in place.
        List<String> names = ResultNames.of(query);
        RelNode rel = new QueryPlanner(schemas).plan(query, statementText);
        List<PlanStep> steps = new java.util.ArrayList<>(new PlanBuilder(relations, exchangePartitions, statementText).build(rel));
        // Rows are positional: renaming the last step's columns renames the view, nothing else.
        PlanStep root = steps.get(steps.size() - 1);
        steps.set(steps.size() - 1, root.withColumnNames(columnNames(root.schema(), names)));
        return new Planned(PhysicalPlan.of(view, outputTopic, store, steps),
            org.apache.calcite.plan.RelOptUtil.toString(rel));
    }

    /** Calcite's {@code EXPR$n} names replaced by PostgreSQL's, unless that would repeat a name. */
    private static List<String> columnNames(RowSchema schema, List<String> names) {
        List<String> result = new java.util.ArrayList<>(schema.columns().stream().map(c -> c.name()).toList());
        for (int i = 0; i < result.size() && i < names.size(); i++) {
            if (result.get(i).startsWith("EXPR$") && !result.contains(names.get(i))) {
                result.set(i, names.get(i));
            }
        }
        return result;
    }
}

package io.kafkamv.compiler.planner;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.kafkamv.compiler.Relation;
import io.kafkamv.compiler.plan.PhysicalPlan;
import io.kafkamv.compiler.plan.PlanStep;
import io.kafkamv.connectors.schema.RowSchema;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.sql.SqlNode;

/** Plans a view's query over the catalog's relations into a physical plan. */
public final class ViewPlanner {

    private final Map<String, Relation> relations;

    public ViewPlanner(Map<String, Relation> relations) {
        this.relations = relations;
    }

    public PhysicalPlan plan(String view, SqlNode query, String statementText, String outputTopic, String store) {
        Map<String, RowSchema> schemas = new LinkedHashMap<>();
        relations.forEach((name, relation) -> schemas.put(name, relation.schema()));
        RelNode rel = new QueryPlanner(schemas).plan(query, statementText);
        List<PlanStep> steps = new PlanBuilder(relations).build(rel);
        return new PhysicalPlan(PhysicalPlan.CURRENT_VERSION, view, outputTopic, store, steps);
    }
}

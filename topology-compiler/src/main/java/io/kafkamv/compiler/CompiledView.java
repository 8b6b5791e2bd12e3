package io.kafkamv.compiler;

import io.kafkamv.compiler.catalog.Relation;
import io.kafkamv.compiler.plan.PhysicalPlan;

/** A compiled view: what it will be once created, the plan that builds it, and its normalized statement. */
public record CompiledView(Relation relation, PhysicalPlan plan, String statement) {
}

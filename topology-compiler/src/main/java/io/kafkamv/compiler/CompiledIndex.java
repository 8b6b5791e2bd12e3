package io.kafkamv.compiler;

import io.kafkamv.compiler.plan.PhysicalPlan;

/** A compiled index: its name, the relation it is on, the plan that keeps it, and its normalized statement. */
public record CompiledIndex(String name, String on, PhysicalPlan plan, String statement) {
}

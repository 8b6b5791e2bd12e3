package io.kafkamv.compiler;

import io.kafkamv.compiler.plan.PhysicalPlan;

/** A compiled sink: its name, the plan that writes its rows out, and its normalized statement. */
public record CompiledSink(String name, PhysicalPlan plan, String statement) {
}

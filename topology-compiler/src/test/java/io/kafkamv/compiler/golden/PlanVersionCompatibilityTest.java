package io.kafkamv.compiler.golden;

import static org.assertj.core.api.Assertions.assertThat;

import io.kafkamv.compiler.plan.PhysicalPlan;
import io.kafkamv.compiler.plan.PlanJson;
import io.kafkamv.compiler.topology.TopologyFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A view created by an older kafka-mv restarts on this one with the topology it was created with:
 * the same processors, stores and internal topics, so its state and offsets still fit. The files in
 * {@code golden/compat} were written by the release that made the plan, and are never regenerated.
 */
class PlanVersionCompatibilityTest {

    private static final Path COMPAT = Paths.get("src/test/resources/golden/compat");

    @ParameterizedTest(name = "version {0}")
    @ValueSource(ints = {1, 2})
    void anOlderPlanBuildsTheTopologyItWasCreatedWith(int version) throws Exception {
        PhysicalPlan plan = PlanJson.fromJson(Files.readString(COMPAT.resolve("json_source.v" + version + ".plan.json"),
            StandardCharsets.UTF_8));

        assertThat(plan.version()).isEqualTo(version);
        assertThat(TopologyFactory.build(plan).describe().toString())
            .isEqualTo(Files.readString(COMPAT.resolve("json_source.v" + version + ".topology.txt"), StandardCharsets.UTF_8));
    }

    @Test
    void theCurrentVersionOfTheSamePlanAggregatesTheSourceAsAStreamInstead() throws Exception {
        PhysicalPlan v1 = PlanJson.fromJson(Files.readString(COMPAT.resolve("json_source.v1.plan.json"), StandardCharsets.UTF_8));
        PhysicalPlan current = new PhysicalPlan(PhysicalPlan.CURRENT_VERSION, v1.view(), v1.outputTopic(), v1.store(),
            v1.steps(), null, v1.sink(), v1.index());

        String topology = TopologyFactory.build(current).describe().toString();

        assertThat(topology).contains("calc-2-insert-filter", "aggregate-3-partial").doesNotContain("source-clicks-store");
    }
}

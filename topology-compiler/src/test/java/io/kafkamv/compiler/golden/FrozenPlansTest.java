package io.kafkamv.compiler.golden;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kafkamv.compiler.plan.PhysicalPlan;
import io.kafkamv.compiler.plan.PlanJson;
import io.kafkamv.compiler.topology.TopologyFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A stored plan of every version in use, with every step kind, builds the topology it was frozen with:
 * the same processors, stores and internal topics, so a running job's state and offsets still fit
 * after an upgrade. {@code golden/frozen/v<version>/<case>} holds the plan and its topology.
 *
 * <p>The files are written once and never again: with {@code -Dfrozen.write=true} the test writes the
 * cases that have no files yet (a new plan version's, from the golden views' plans), and never touches
 * one that exists. A change that makes an existing case fail changes what running jobs build: it needs
 * a new plan version or a new step type id, not new files. (The cases of versions 1 and 2 were frozen
 * from the builds of 2026-12-01, which {@link PlanVersionCompatibilityTest} checks against files written
 * by the releases that made those versions.)
 */
class FrozenPlansTest {

    private static final Path FROZEN = Paths.get("src/test/resources/golden/frozen");
    private static final Path GOLDEN = Paths.get("src/test/resources/golden/views");
    private static final boolean WRITE = Boolean.getBoolean("frozen.write");

    /** One golden view per step kind and per kind of output, and the variants that build differently. */
    private static final List<String> CASES = List.of(
        "select_star", "project_filter", "json_source", "group_by", "global_aggregate", "having_distinct",
        "union_all", "left_join", "join_inserted_rows", "join_aggregate", "top_n_per_group", "top_n_inserted_rows",
        "order_by_limit", "tumble_window", "hop_window", "view_on_view", "sink_debezium", "index_on_table");

    /** Step kinds added later, with the first plan version that can hold them. */
    private static final Map<String, Integer> LATER_CASES = Map.of("lookup_join", 4, "left_lookup_join", 4, "keyed_source", 4);

    static Stream<Arguments> cases() {
        return IntStream.rangeClosed(1, PhysicalPlan.CURRENT_VERSION).boxed()
            .flatMap(version -> Stream.concat(CASES.stream(), LATER_CASES.entrySet().stream()
                    .filter(later -> later.getValue() <= version).map(Map.Entry::getKey).sorted())
                .map(name -> Arguments.of(version, name)));
    }

    @ParameterizedTest(name = "v{0} {1}")
    @MethodSource("cases")
    void aStoredPlanBuildsTheTopologyItWasFrozenWith(int version, String name) throws IOException {
        Path plan = FROZEN.resolve("v" + version).resolve(name + ".plan.json");
        Path topology = FROZEN.resolve("v" + version).resolve(name + ".topology.txt");
        if (WRITE && !Files.exists(plan)) {
            freeze(version, name, plan, topology);
        }
        assertThat(plan).as("frozen plan (write a new version's with -Dfrozen.write=true)").exists();

        PhysicalPlan stored = PlanJson.fromJson(Files.readString(plan, StandardCharsets.UTF_8));

        assertThat(stored.version()).isEqualTo(version);
        assertThat(TopologyFactory.build(stored).describe().toString())
            .isEqualTo(Files.readString(topology, StandardCharsets.UTF_8));
    }

    private static void freeze(int version, String name, Path plan, Path topology) throws IOException {
        ObjectNode tree = (ObjectNode) PlanJson.toTree(
            PlanJson.fromJson(Files.readString(GOLDEN.resolve(name + ".plan.json"), StandardCharsets.UTF_8)));
        tree.put("version", version);
        PhysicalPlan frozen = PlanJson.fromTree(tree);
        Files.createDirectories(plan.getParent());
        Files.writeString(plan, PlanJson.toJson(frozen) + "\n", StandardCharsets.UTF_8);
        Files.writeString(topology, TopologyFactory.build(frozen).describe().toString(), StandardCharsets.UTF_8);
    }
}

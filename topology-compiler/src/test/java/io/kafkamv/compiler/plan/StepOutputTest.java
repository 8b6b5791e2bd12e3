package io.kafkamv.compiler.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.RowSchema;
import io.kafkamv.connectors.schema.SqlType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** What each step produces: recorded by the planner, and read the same from plans stored before it was. */
class StepOutputTest {

    private static final Path GOLDEN = Paths.get("src/test/resources/golden/views");

    static Stream<Path> goldenPlans() throws IOException {
        return Files.list(GOLDEN).filter(path -> path.toString().endsWith(".plan.json")).sorted();
    }

    @ParameterizedTest
    @MethodSource("goldenPlans")
    void aPlanStoredWithoutWhatItsStepsProduceIsReadAsIfItHadRecordedIt(Path file) throws IOException {
        PhysicalPlan recorded = PlanJson.fromJson(Files.readString(file, StandardCharsets.UTF_8));
        ObjectNode tree = (ObjectNode) PlanJson.toTree(recorded);
        tree.remove("produces");
        PhysicalPlan stored = PlanJson.fromTree(tree);

        assertThat(recorded.produces()).as("recorded by the planner").isNotNull().hasSize(recorded.steps().size());
        assertThat(stored.produces()).isNull();
        for (PlanStep step : recorded.steps()) {
            assertThat(stored.output(step.id())).as(step.id()).isEqualTo(recorded.output(step.id()));
        }
    }

    @Test
    void insertsFlowThroughCalculationsAndTumblingWindowsUntilAnAggregate() {
        RowSchema clicks = RowSchema.of(Column.of("user", SqlType.VARCHAR), Column.of("at", SqlType.TIMESTAMP));
        List<PlanStep> steps = List.of(
            new TableScanStep("scan", "clicks", "kmv-table-clicks", clicks, List.of(), true),
            new CalcStep("calc", "scan", "SELECT * FROM \"input\"", clicks, List.of()),
            new WindowStep("window", "calc", WindowStep.WindowKind.TUMBLE, 1, 60_000, 60_000, 0, clicks, List.of()),
            new AggregateStep("aggregate", "window", List.of(0), List.of(), clicks, List.of()));

        assertThat(StepOutput.of(PhysicalPlan.CURRENT_VERSION, steps)).containsExactly(
            Map.entry("scan", StepOutput.INSERTS), Map.entry("calc", StepOutput.INSERTS),
            Map.entry("window", StepOutput.INSERTS), Map.entry("aggregate", StepOutput.CHANGES));
        assertThat(StepOutput.of(1, steps).values()).as("version 1: every step a table").containsOnly(StepOutput.CHANGES);
    }

    @Test
    void aTableWithUpdatesProducesChangesAndSoDoesEverythingOverIt() {
        RowSchema orders = new RowSchema(List.of(Column.of("id", SqlType.BIGINT)), List.of("id"));
        List<PlanStep> steps = List.of(
            new TableScanStep("scan", "orders", "kmv-table-orders", orders, List.of(), false),
            new CalcStep("calc", "scan", "SELECT * FROM \"input\"", orders, List.of()));

        assertThat(StepOutput.of(PhysicalPlan.CURRENT_VERSION, steps).values()).containsOnly(StepOutput.CHANGES);
    }
}

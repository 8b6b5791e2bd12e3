package io.kafkamv.compiler.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.RowSchema;
import io.kafkamv.connectors.schema.SqlType;
import org.junit.jupiter.api.Test;

class PlanOutputTopicsTest {

    private static final PhysicalPlan VIEW = PhysicalPlan.of("v", "kmv-view-v", "v",
        List.of(new TableScanStep("s0", "t", "t", RowSchema.of(Column.of("id", SqlType.INTEGER)), List.of(), true)));

    @Test
    void aViewOwnsItsChangelog() {
        assertThat(PlanOutputTopics.of(PlanJson.toTree(VIEW)))
            .isEqualTo(new PlanOutputTopics(Optional.of("kmv-view-v"), Optional.empty()));
    }

    @Test
    void aKafkaSinksTopicBelongsToItsReaders() {
        PhysicalPlan sink = VIEW.writtenTo(new SinkOutput("kafka", "orders", "json", SinkOutput.SinkType.UPSERT,
            List.of("id"), false, null, Map.of()));

        assertThat(PlanOutputTopics.of(PlanJson.toTree(sink)))
            .isEqualTo(new PlanOutputTopics(Optional.empty(), Optional.empty()));
    }

    @Test
    void aJdbcSinkOwnsTheTopicItsTableIsWrittenFrom() {
        PhysicalPlan sink = VIEW.writtenTo(new SinkOutput("jdbc", "kmv-sink-s", "json", SinkOutput.SinkType.UPSERT,
            List.of("id"), false, new SinkOutput.Jdbc("jdbc:postgresql://db/app", "orders", "app", null), Map.of()));

        assertThat(PlanOutputTopics.of(PlanJson.toTree(sink)))
            .isEqualTo(new PlanOutputTopics(Optional.of("kmv-sink-s"), Optional.of("kmv-sink-s")));
    }

    @Test
    void aPlanOfANewerVersionIsReadAsFarAsItsOutputs() {
        JsonNode newer = PlanJson.toTree(VIEW);
        ((ObjectNode) newer).put("version", 99).putArray("steps").addObject().put("type", "stepOfTheFutureV1");

        assertThat(PlanOutputTopics.of(newer).owned()).contains("kmv-view-v");
    }

    @Test
    void noPlanWritesNothing() {
        assertThat(PlanOutputTopics.of(null)).isEqualTo(new PlanOutputTopics(Optional.empty(), Optional.empty()));
    }
}

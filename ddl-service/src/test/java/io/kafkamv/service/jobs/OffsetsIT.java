package io.kafkamv.service.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.kafkamv.compiler.plan.PhysicalPlan;
import io.kafkamv.compiler.plan.TableScanStep;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.RowSchema;
import io.kafkamv.connectors.schema.SqlType;
import io.kafkamv.embedded.junit.EmbeddedKafkaExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A new job's offsets, on a real broker. */
class OffsetsIT {

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = EmbeddedKafkaExtension.singleNode();

    @Test
    void aJobOverATopicTheBrokersDoNotKnowYetWaitsForItInsteadOfFailing() throws Exception {
        try (Admin admin = Admin.create(KAFKA.cluster().clientProperties())) {
            CompletableFuture<Offsets.Range> range = CompletableFuture.supplyAsync(
                () -> Offsets.ofNewJob(admin, planOver("kmv-table-late"), Duration.ofSeconds(30)));

            // Unknown to the brokers, as a just-created topic can be for a moment: still waiting, not failed.
            await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5)).until(() -> !range.isDone());
            admin.createTopics(List.of(new NewTopic("kmv-table-late", 2, (short) 1))).all().get();

            assertThat(range.get(30, TimeUnit.SECONDS).end())
                .isEqualTo(Map.of("kmv-table-late:0", 0L, "kmv-table-late:1", 0L));
        }
    }

    @Test
    void aTopicThatNeverComesFailsOnceTheDeadlineHasPassed() {
        try (Admin admin = Admin.create(KAFKA.cluster().clientProperties())) {
            assertThatThrownBy(() -> Offsets.ofNewJob(admin, planOver("kmv-table-never"), Duration.ofMillis(300)))
                .hasMessageContaining("Cannot read offsets of [kmv-table-never]");
        }
    }

    private static PhysicalPlan planOver(String topic) {
        RowSchema schema = RowSchema.of(Column.of("id", SqlType.INTEGER));
        return PhysicalPlan.of("v", "kmv-view-v", "rows", List.of(new TableScanStep("scan", "t", topic, schema, List.of(), true)));
    }
}

package io.kafkamv.service.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SharedAdminClientSupplierTest {

    private static final String CLOSED = "AdminClient is closing";

    @TempDir
    Path stateDir;

    @Test
    void aJobsKafkaStreamsUsesTheSharedAdminClientAndLeavesItOpenWhenItCloses() {
        try (Admin shared = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:1"))) {
            UnstartedStreams.of(stateDir, new SharedAdminClientSupplier(shared)).close(Duration.ofSeconds(10));

            assertThat(failureOfACall(shared)).as("the shared client after a job's close").doesNotContain(CLOSED);
            shared.close(Duration.ZERO);
            assertThat(failureOfACall(shared)).as("what the check sees of a closed client").contains(CLOSED);
        }
    }

    /** Why a call fails at once: no broker listens, so an open client times out waiting for one. */
    private static String failureOfACall(Admin admin) {
        Throwable failure = catchThrowable(() -> admin.describeCluster(new DescribeClusterOptions().timeoutMs(100))
            .clusterId().get(10, TimeUnit.SECONDS));
        assertThat(failure).isNotNull();
        return String.valueOf(failure.getMessage());
    }
}

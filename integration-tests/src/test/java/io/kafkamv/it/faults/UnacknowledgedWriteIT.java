package io.kafkamv.it.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import io.kafkamv.it.support.KafkaAdmin;
import io.kafkamv.it.support.ServiceProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka does not take an INSERT's rows (here: an operator made the table topic's largest message smaller than one
 * row): the INSERT fails with a SQLSTATE and a message that says how many rows were written, never an internal
 * error, and the session goes on.
 */
class UnacknowledgedWriteIT {

    @TempDir
    Path workDir;

    @Test
    void anInsertKafkaDoesNotTakeFailsWithWhatWasWritten() throws Exception {
        try (ServiceProcess service = ServiceProcess.start(workDir.resolve("data"));
             Connection connection = DriverManager.getConnection("jdbc:postgresql://localhost:" + service.pgPort()
                 + "/dev?user=root");
             Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE strict (id INT PRIMARY KEY, v INT)");
            String topic = KafkaAdmin.topics(service.bootstrapServers()).stream()
                .filter(name -> name.startsWith("kmv-table-strict-")).findFirst().orElseThrow();
            KafkaAdmin.setTopicConfig(service.bootstrapServers(), topic, "max.message.bytes", "64");
            // The broker applies a topic's new config a moment later.
            AtomicInteger probe = new AtomicInteger();
            await().atMost(Duration.ofMinutes(1)).until(() -> {
                try {
                    statement.execute("INSERT INTO strict VALUES (" + probe.decrementAndGet() + ", 0)");
                    return false;
                } catch (SQLException refused) {
                    return true;
                }
            });

            SQLException failed = catchThrowableOfType(SQLException.class,
                () -> statement.execute("INSERT INTO strict SELECT x, x FROM generate_series(1, 1000) AS s(x)"));

            assertThat(failed.getSQLState()).isEqualTo("58000");
            assertThat(failed.getMessage()).contains("writing to table strict failed after at least 0 of its rows were written")
                .doesNotContain("internal error");
            KafkaAdmin.setTopicConfig(service.bootstrapServers(), topic, "max.message.bytes", "1048588");
            statement.execute("INSERT INTO strict SELECT x, x FROM generate_series(1, 1000) AS s(x)");
            statement.execute("FLUSH");
            var count = statement.executeQuery("SELECT count(*) FROM strict WHERE id > 0");
            assertThat(count.next()).isTrue();
            assertThat(count.getLong(1)).as("the session goes on, and writes again once Kafka takes them").isEqualTo(1000);
        }
    }
}

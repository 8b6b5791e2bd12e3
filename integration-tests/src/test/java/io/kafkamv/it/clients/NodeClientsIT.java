package io.kafkamv.it.clients;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.kafkamv.it.support.PostgresAnswers;
import io.kafkamv.it.support.ServiceExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * node-postgres ({@code pg} from npm, pinned in {@code src/test/node/package-lock.json}, which {@code .ci/run}
 * installs with {@code npm ci}) does what its users do and gets what the real PostgreSQL gives it: the same script
 * runs against both and prints the same lines.
 */
class NodeClientsIT {

    @RegisterExtension
    static final ServiceExtension SERVICE = new ServiceExtension();

    private static final Path SCRIPTS = Path.of("src/test/node");

    @Test
    void nodePostgresGetsWhatPostgresGivesIt() throws Exception {
        assertThat(SCRIPTS.resolve("node_modules/pg")).as("node-postgres, installed by npm ci in " + SCRIPTS).exists();
        URI postgres = URI.create(PostgresAnswers.url().substring("jdbc:".length()));
        List<String> expected = run(String.valueOf(postgres.getPort()), PostgresAnswers.user(), PostgresAnswers.password(),
            postgres.getPath().substring(1));
        List<String> actual = run(String.valueOf(SERVICE.service().pgPort()));
        assertThat(expected).as("PostgreSQL's answers").hasSize(5).noneMatch(line -> line.contains("ERROR"));
        assertThat(actual).isEqualTo(expected);
    }

    private static List<String> run(String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of("node", "node_clients.js"));
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command).directory(SCRIPTS.toFile()).redirectErrorStream(true);
        // node-postgres reads timestamps in the local time zone; PostgreSQL's answers and ours are at UTC.
        builder.environment().put("TZ", "UTC");
        Process process = builder.start();
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("node did not finish in 2 minutes: " + command);
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as("exit of %s, which printed:%n%s", command, output).isZero();
        return output.lines().toList();
    }
}

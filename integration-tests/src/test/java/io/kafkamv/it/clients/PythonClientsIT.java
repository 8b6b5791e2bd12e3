package io.kafkamv.it.clients;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.kafkamv.it.support.PostgresAnswers;
import io.kafkamv.it.support.ServiceExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Python's PostgreSQL clients, from Debian's packages as users install them, do what their users do (create a
 * table, insert rows with parameters of every type: int, text, Decimal, datetime, bytes, bool and None, query
 * with parameters, prepared and not, in text and binary, COPY in and out, a server-side cursor; SQLAlchemy's
 * inspector, reflection and Core), and get what the real PostgreSQL gives them: the
 * same script runs against both and prints the same lines. {@code .ci/run} installs the clients.
 */
class PythonClientsIT {

    @RegisterExtension
    static final ServiceExtension SERVICE = new ServiceExtension();

    private static final String PYTHON = "/usr/bin/python3";

    @TempDir
    static Path scripts;

    @ParameterizedTest
    @ValueSource(strings = {"psycopg2", "psycopg3-text", "psycopg3-binary", "asyncpg", "sqlalchemy"})
    void aClientGetsWhatPostgresGivesIt(String client) throws Exception {
        Path script = script();
        URI postgres = URI.create(PostgresAnswers.url().substring("jdbc:".length()));
        List<String> expected = run(script, client, String.valueOf(postgres.getPort()), PostgresAnswers.user(),
            PostgresAnswers.password(), postgres.getPath().substring(1));
        List<String> actual = run(script, client, String.valueOf(SERVICE.service().pgPort()));
        assertThat(expected).as("PostgreSQL's answers").isNotEmpty().noneMatch(line -> line.contains("ERROR"));
        assertThat(actual).isEqualTo(expected);
    }

    private static Path script() throws IOException {
        Path script = scripts.resolve("python_clients.py");
        if (!Files.exists(script)) {
            try (var in = PythonClientsIT.class.getResourceAsStream("/clients/python_clients.py")) {
                Files.copy(in, script);
            }
        }
        return script;
    }

    private static List<String> run(Path script, String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of(PYTHON, script.toString()));
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("python did not finish in 2 minutes: " + command);
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as("exit of %s, which printed:%n%s", command, output).isZero();
        return output.lines().toList();
    }
}

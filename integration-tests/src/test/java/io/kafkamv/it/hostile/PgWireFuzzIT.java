package io.kafkamv.it.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Random;

import io.kafkamv.it.support.ServiceExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Hostile bytes on the PostgreSQL port: random, malformed, truncated and oversized messages, before
 * and after a valid startup. None may take the service down or leave a normal session unusable.
 * The run is bounded in time; {@code -Dfuzz.seconds=600} runs longer, {@code -Dfuzz.seed=N} repeats one.
 */
class PgWireFuzzIT {

    @RegisterExtension
    static final ServiceExtension SERVICE = new ServiceExtension();

    private static final char[] TYPES = {'Q', 'P', 'B', 'D', 'E', 'S', 'C', 'H', 'X', 'p', 'F', 'd', 'c', 'f', '?'};

    @Test
    void noSequenceOfBadMessagesTakesTheServiceDownOrBreaksTheNextSession() throws Exception {
        long seed = Long.getLong("fuzz.seed", System.nanoTime());
        Duration budget = Duration.ofSeconds(Long.getLong("fuzz.seconds", 20));
        Random random = new Random(seed);
        long deadline = System.nanoTime() + budget.toNanos();
        int connections = 0;
        while (System.nanoTime() < deadline || connections < 50) {
            try (Socket socket = new Socket("localhost", SERVICE.service().pgPort())) {
                socket.setSoTimeout(200);
                DataOutputStream out = new DataOutputStream(socket.getOutputStream());
                if (random.nextInt(4) > 0) {
                    startup(out);
                }
                int messages = 1 + random.nextInt(8);
                for (int i = 0; i < messages; i++) {
                    hostileMessage(random, out);
                }
                out.flush();
                drain(socket.getInputStream());
            } catch (IOException closedByTheServer) {
                // A refused or closed connection is a correct answer to garbage.
            }
            connections++;
            if (connections % 25 == 0) {
                assertUsable(seed, connections);
            }
        }
        assertUsable(seed, connections);
    }

    private static void startup(DataOutputStream out) throws IOException {
        byte[] parameters = "user\0root\0database\0dev\0\0".getBytes(StandardCharsets.UTF_8);
        out.writeInt(8 + parameters.length);
        out.writeInt(196608);
        out.write(parameters);
    }

    /** One of: random bytes, a message of a known type with a random or lying length, or a cut-off one. */
    private static void hostileMessage(Random random, DataOutputStream out) throws IOException {
        switch (random.nextInt(5)) {
            case 0 -> {
                byte[] garbage = new byte[random.nextInt(64)];
                random.nextBytes(garbage);
                out.write(garbage);
            }
            case 1 -> {
                byte[] body = new byte[random.nextInt(32)];
                random.nextBytes(body);
                out.write(TYPES[random.nextInt(TYPES.length)]);
                out.writeInt(body.length + 4);
                out.write(body);
            }
            case 2 -> {
                out.write(TYPES[random.nextInt(TYPES.length)]);
                out.writeInt(random.nextBoolean() ? Integer.MAX_VALUE : random.nextInt());
            }
            case 3 -> {
                String sql = random.nextBoolean() ? "SELECT 1" : "SELECT '" + "x".repeat(random.nextInt(100));
                byte[] text = (sql + "\0").getBytes(StandardCharsets.UTF_8);
                out.write('Q');
                out.writeInt(text.length + 4 + random.nextInt(3) - 1);
                out.write(text, 0, Math.max(0, text.length - random.nextInt(2)));
            }
            default -> {
                out.write('P');
                out.writeInt(4 + 3);
                out.write(new byte[] {0, 'S', 0});
            }
        }
    }

    private static void drain(InputStream in) throws IOException {
        byte[] buffer = new byte[8192];
        try {
            while (in.read(buffer) >= 0) {
                // Whatever the server answers is fine; only that it answers or closes matters.
            }
        } catch (SocketTimeoutException stillOpen) {
            // The server waits for more bytes: also fine.
        }
    }

    private static void assertUsable(long seed, int connections) throws Exception {
        try (Connection connection = DriverManager.getConnection(SERVICE.jdbcUrl(), "root", "");
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT 40 + 2")) {
            assertThat(rows.next()).as("seed %d after %d hostile connections", seed, connections).isTrue();
            assertThat(rows.getInt(1)).isEqualTo(42);
        }
    }
}

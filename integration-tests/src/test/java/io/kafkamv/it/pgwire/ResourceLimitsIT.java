package io.kafkamv.it.pgwire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

import io.kafkamv.it.support.Psql;
import io.kafkamv.it.support.ServiceProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a client can make an instance spend is bounded, as in PostgreSQL. Before authenticating: a startup packet is
 * at most 10,000 bytes, a client that does not finish its handshake is dropped after a minute, and clients beyond
 * --pg-max-connections are refused with 53300. After: a query whose result would take more memory than
 * --max-result-mb fails with 53200 and the instance serves on.
 */
class ResourceLimitsIT {

    private static final int MAX_CONNECTIONS = 3;

    @TempDir
    Path workDir;

    @Test
    void strangersCannotHoldTheEndpoint() throws Exception {
        try (ServiceProcess service = ServiceProcess.start(workDir.resolve("data"), "--pg-max-connections",
                String.valueOf(MAX_CONNECTIONS), "--max-result-mb", "16");
             Socket idle = new Socket("localhost", service.pgPort())) {
            Psql psql = new Psql(service.pgPort());

            try (Socket oversized = new Socket("localhost", service.pgPort())) {
                DataOutputStream out = new DataOutputStream(oversized.getOutputStream());
                out.writeInt(10_001);
                out.writeInt(196608);
                out.flush();
                oversized.setSoTimeout(30_000);
                assertThat(readToEnd(oversized)).as("a startup packet over 10,000 bytes closes the connection").isTrue();
            }

            String url = "jdbc:postgresql://localhost:" + service.pgPort() + "/dev?user=root";
            try (Connection first = DriverManager.getConnection(url);
                 Connection second = DriverManager.getConnection(url)) {
                Psql.Result refused = psql.run("SELECT 1");
                assertThat(refused.exitCode()).isNotZero();
                assertThat(refused.stderr()).contains("FATAL:  sorry, too many clients already");
                assertThat(first.createStatement().executeQuery("SELECT 1").next()).as("those in keep working").isTrue();
                assertThat(second.isValid(5)).isTrue();
            }
            assertThat(psql.value("SELECT 2")).as("a place that frees is taken again").isEqualTo("2");

            try (Connection connection = DriverManager.getConnection(url)) {
                SQLException tooLarge = catchThrowableOfType(SQLException.class, () ->
                    connection.createStatement().executeQuery("SELECT * FROM generate_series(1, 2000000000)"));
                assertThat(tooLarge.getSQLState()).isEqualTo("53200");
                assertThat(tooLarge.getMessage()).contains("out of memory: the query's result takes more than 16 MB");
                ResultSet within = connection.createStatement().executeQuery(
                    "SELECT count(*) FROM (SELECT * FROM generate_series(1, 100000)) AS s");
                assertThat(within.next()).isTrue();
                assertThat(within.getLong(1)).as("the session and the instance serve on").isEqualTo(100_000);
            }

            idle.setSoTimeout(120_000);
            long started = System.nanoTime();
            assertThat(readToEnd(idle)).as("a client that never starts up is dropped").isTrue();
            assertThat(psql.session(List.of("SELECT 3"), "-A", "-t").stdout()).isEqualTo("3\n");
            assertThat(System.nanoTime() - started).isLessThan(90_000_000_000L);
        }
    }

    /** True when the server closed the connection, having sent whatever it sent. */
    private static boolean readToEnd(Socket socket) throws IOException {
        try {
            while (socket.getInputStream().read() >= 0) {
                // Whatever the server says before it closes.
            }
            return true;
        } catch (SocketException reset) {
            return true;
        }
    }
}

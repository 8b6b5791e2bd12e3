package io.kafkamv.it.pgwire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.kafkamv.it.support.Psql;
import io.kafkamv.it.support.ServiceProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS on the PostgreSQL endpoint, with a certificate made by openssl as an administrator would:
 * psql and pgjdbc verify it (verify-full: the chain and the host name), and a client that does not
 * ask for TLS is refused with a reason when TLS is required.
 */
class PgTlsIT {

    @TempDir
    Path dir;

    @Test
    void psqlAndPgjdbcVerifyTheServerAndAClientWithoutTlsIsRefused() throws Exception {
        Path certificate = dir.resolve("server.crt");
        Path key = dir.resolve("server.key");
        Process openssl = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes",
            "-keyout", key.toString(), "-out", certificate.toString(), "-days", "1", "-subj", "/CN=localhost",
            "-addext", "subjectAltName=DNS:localhost").redirectErrorStream(true).start();
        assertThat(openssl.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(openssl.exitValue()).as(new String(openssl.getInputStream().readAllBytes())).isZero();

        try (ServiceProcess service = ServiceProcess.start(dir.resolve("data"), "--pg-tls-cert", certificate.toString(),
                "--pg-tls-key", key.toString(), "--pg-tls-required")) {
            Psql verifying = new Psql(service.pgPort()).with("PGSSLMODE", "verify-full")
                .with("PGSSLROOTCERT", certificate.toString());
            Psql.Result secure = verifying.session(List.of("CREATE TABLE t(v int)", "INSERT INTO t VALUES (7)", "FLUSH",
                "SELECT v FROM t"), "-A", "-t");
            assertThat(secure.exitCode()).as(secure.stderr()).isZero();
            assertThat(secure.stdout()).endsWith("7\n");

            String url = "jdbc:postgresql://localhost:" + service.pgPort() + "/dev?user=root";
            try (Connection connection = DriverManager.getConnection(url + "&sslmode=verify-full&sslrootcert=" + certificate);
                 Statement statement = connection.createStatement();
                 ResultSet rows = statement.executeQuery("SELECT v * 6 FROM t")) {
                assertThat(rows.next()).isTrue();
                assertThat(rows.getInt(1)).isEqualTo(42);
            }

            Psql.Result plain = new Psql(service.pgPort()).with("PGSSLMODE", "disable").run("SELECT 1");
            assertThat(plain.exitCode()).isNotZero();
            assertThat(plain.stderr()).contains("this server requires TLS");
            assertThatThrownBy(() -> DriverManager.getConnection(url + "&sslmode=disable"))
                .hasMessageContaining("this server requires TLS");
            Psql.Result wrongCa = new Psql(service.pgPort()).with("PGSSLMODE", "verify-full")
                .with("PGSSLROOTCERT", dir.resolve("nothing.crt").toString()).run("SELECT 1");
            assertThat(wrongCa.exitCode()).as("verify-full without the CA must not connect").isNotZero();

            // Bytes sent before the TLS handshake could come from anyone on the path: no 'S', the connection ends.
            try (java.net.Socket raw = new java.net.Socket("localhost", service.pgPort())) {
                raw.setSoTimeout(10_000);
                java.io.ByteArrayOutputStream request = new java.io.ByteArrayOutputStream();
                java.io.DataOutputStream message = new java.io.DataOutputStream(request);
                message.writeInt(8);
                message.writeInt(80877103);
                message.writeInt(8);
                message.writeInt(196608);
                raw.getOutputStream().write(request.toByteArray());
                raw.getOutputStream().flush();
                assertThat(raw.getInputStream().read()).isEqualTo(-1);
            }
        }
    }
}

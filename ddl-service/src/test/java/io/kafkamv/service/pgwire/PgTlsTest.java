package io.kafkamv.service.pgwire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The key files administrators have: PKCS#8 works, and the common other kinds get a way to convert them. */
class PgTlsTest {

    @TempDir
    Path dir;

    @Test
    void aPkcs8KeyWithItsCertificateMakesATlsEndpoint() throws Exception {
        Path key = dir.resolve("server.key");
        Path certificate = dir.resolve("server.crt");
        openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
            key.toString(), "-out", certificate.toString(), "-days", "1", "-subj", "/CN=localhost");

        assertThat(Files.readString(key)).contains("-----BEGIN PRIVATE KEY-----");
        assertThat(PgTls.fromPem(certificate, key, true).required()).isTrue();
    }

    @Test
    void aPkcs1KeyIsRefusedWithTheCommandThatConvertsIt() throws Exception {
        Path key = dir.resolve("rsa.key");
        Path certificate = dir.resolve("server.crt");
        openssl("genrsa", "-traditional", "-out", key.toString(), "2048");
        openssl("req", "-x509", "-key", key.toString(), "-out", certificate.toString(), "-days", "1", "-subj", "/CN=localhost");

        assertThatThrownBy(() -> PgTls.fromPem(certificate, key, false))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("PKCS#1")
            .hasMessageContaining("openssl pkcs8 -topk8 -nocrypt -in " + key);
    }

    @Test
    void aFileWithoutAKeySaysSo() throws Exception {
        Path certificate = dir.resolve("server.crt");
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", dir.resolve("k").toString(), "-out",
            certificate.toString(), "-days", "1", "-subj", "/CN=localhost");

        assertThatThrownBy(() -> PgTls.fromPem(certificate, certificate, false))
            .hasMessageContaining("holds no PEM private key");
    }

    private static void openssl(String... arguments) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("openssl"));
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
    }
}

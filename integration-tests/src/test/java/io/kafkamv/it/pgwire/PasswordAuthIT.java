package io.kafkamv.it.pgwire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Properties;

import io.kafkamv.it.support.Psql;
import io.kafkamv.it.support.ServiceProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** With a users file, psql and pgjdbc must prove the password (SCRAM-SHA-256); nobody else gets in. */
class PasswordAuthIT {

    @TempDir
    Path workDir;

    @Test
    void onlyUsersWithTheirPasswordGetIn() throws Exception {
        Path users = Files.writeString(workDir.resolve("users"), "# kafka-mv users\nalice:s3cret:with:colons\nbob:hunter2\n");
        try (ServiceProcess service = ServiceProcess.start(workDir.resolve("data"), "--pg-users-file", users.toString())) {
            Psql psql = new Psql(service.pgPort());

            Psql.Result alice = psql.as("alice", "s3cret:with:colons").run("SELECT 41 + 1", "-A", "-t");
            Psql.Result wrong = psql.as("alice", "guess").run("SHOW TABLES");
            Psql.Result nobody = psql.as("mallory", "s3cret:with:colons").run("SHOW TABLES");
            Psql.Result noPassword = psql.run("SHOW TABLES");

            assertThat(alice.exitCode()).as(alice.stderr()).isZero();
            assertThat(alice.stdout()).isEqualTo("42\n");
            assertThat(wrong.stderr()).contains("password authentication failed for user \"alice\"");
            assertThat(nobody.stderr()).contains("password authentication failed for user \"mallory\"")
                .as("a refused client learns nothing about objects").doesNotContain("relation");
            assertThat(noPassword.exitCode()).isNotZero();

            String url = "jdbc:postgresql://localhost:" + service.pgPort() + "/dev";
            try (Connection connection = DriverManager.getConnection(url, credentials("bob", "hunter2"));
                 ResultSet result = connection.createStatement().executeQuery("SELECT 7")) {
                assertThat(result.next()).isTrue();
                assertThat(result.getInt(1)).isEqualTo(7);
            }
            assertThatThrownBy(() -> DriverManager.getConnection(url, credentials("bob", "wrong")))
                .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("28P01"));
            assertThat(Files.readString(service.log())).as("passwords never reach the log")
                .doesNotContain("hunter2").doesNotContain("s3cret");
        }
    }

    private static Properties credentials(String user, String password) {
        Properties properties = new Properties();
        properties.setProperty("user", user);
        properties.setProperty("password", password);
        return properties;
    }
}

package io.kafkamv.connectors.secret;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SecretReferencesTest {

    @TempDir
    Path dir;

    @Test
    void aValueWithoutAReferenceIsItself() {
        assertThat(SecretReferences.resolve("password", "plain $ {x}")).isEqualTo("plain $ {x}");
        assertThat(SecretReferences.resolve("password", null)).isNull();
        assertThat(SecretReferences.isReference("${env:HOME}")).isTrue();
        assertThat(SecretReferences.isReference("s3cret")).isFalse();
    }

    @Test
    void referencesAreReadFromTheEnvironmentAPropertiesFileOrADirectory() throws Exception {
        Files.writeString(dir.resolve("db.properties"), "password=from-file\nuser=app\n");
        Files.writeString(dir.resolve("token"), "from-directory");

        assertThat(SecretReferences.resolve("user", "${env:PATH}")).isEqualTo(System.getenv("PATH"));
        assertThat(SecretReferences.resolve("password", "${file:" + dir.resolve("db.properties") + ":password}"))
            .isEqualTo("from-file");
        assertThat(SecretReferences.resolve("password", "${directory:" + dir + ":token}")).isEqualTo("from-directory");
        assertThat(SecretReferences.resolve("url", "jdbc:postgresql://db/x?user=${file:" + dir.resolve("db.properties")
            + ":user}")).isEqualTo("jdbc:postgresql://db/x?user=app");
    }

    @Test
    void anUnreadableReferenceIsAnErrorThatNamesItButNoSecret() {
        assertThatThrownBy(() -> SecretReferences.resolve("password", "${env:KAFKA_MV_TEST_NO_SUCH_VARIABLE}"))
            .hasMessage("the secret ${env:KAFKA_MV_TEST_NO_SUCH_VARIABLE} of option password cannot be read: it is not set here");
        assertThatThrownBy(() -> SecretReferences.resolve("password", "${vault:secret/db}"))
            .hasMessageContaining("the providers are env, file and directory");
        assertThatThrownBy(() -> SecretReferences.resolve("password", "${file:" + dir.resolve("missing") + ":password}"))
            .isInstanceOf(SecretReferences.UnreadableSecretException.class).hasMessageContaining("cannot be read");
    }
}

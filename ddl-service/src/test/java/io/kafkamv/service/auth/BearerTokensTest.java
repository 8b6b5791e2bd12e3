package io.kafkamv.service.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BearerTokensTest {

    @TempDir
    Path dir;

    @Test
    void aTokenFromTheFileNamesItsHolder() throws IOException {
        BearerTokens tokens = BearerTokens.fromFile(write("# comment\n\nops: 0123456789abcdef-ops\n0123456789abcdef-bare\n"));

        assertThat(tokens.required()).isTrue();
        assertThat(tokens.holder("Bearer 0123456789abcdef-ops")).contains("ops");
        assertThat(tokens.holder("bearer 0123456789abcdef-bare")).contains("token 4");
        assertThat(tokens.holder("Bearer 0123456789abcdef-op")).isEmpty();
        assertThat(tokens.holder("Basic 0123456789abcdef-ops")).isEmpty();
        assertThat(tokens.holder(null)).isEmpty();
        assertThat(tokens.authorization()).contains("Bearer 0123456789abcdef-ops");
    }

    @Test
    void shortTokensAndEmptyFilesAreRefusedAtStart() throws IOException {
        assertThatThrownBy(() -> BearerTokens.fromFile(write("ops:short\n")))
            .hasMessageContaining("token on line 1").hasMessageContaining("shorter than 16 characters");
        assertThatThrownBy(() -> BearerTokens.fromFile(write("# nobody\n"))).hasMessageContaining("has no tokens");
    }

    @Test
    void withoutTokensTheApiIsOpen() {
        assertThat(BearerTokens.open().required()).isFalse();
        assertThat(BearerTokens.open().authorization()).isEmpty();
    }

    private Path write(String text) throws IOException {
        Path file = Files.createTempFile(dir, "tokens", ".txt");
        return Files.writeString(file, text);
    }
}

package io.kafkamv.service.rest;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RestServerGuardTest {

    @Test
    void everyPathButTheOpenOnesIsGuardedHoweverSpelled() {
        for (String path : new String[] {"/metrics", "/metrics/", "//metrics", "/METRICS", "/./metrics", "/v1/jobs",
            "/v1/jobs/", "//v1/jobs", "/v1//jobs", "/V1/Jobs", "/console/../v1/objects", "/internal/v1/jobs/1/rows",
            "/internal//v1/jobs/1/rows", "/v1", "/a b/../v1/jobs", "/healthz/", "/HEALTHZ", "//", "/v2/anything-new",
            "/admin", "/index.html/../metrics", "/x/index.html"}) {
            assertThat(RestServer.isGuarded(path)).as(path).isTrue();
        }
    }

    @Test
    void healthReadinessTheApiDescriptionAndTheConsoleAreOpen() {
        for (String path : new String[] {"/healthz", "/readyz", "/openapi.json", "/", "/console.js", "/index.html"}) {
            assertThat(RestServer.isGuarded(path)).as(path).isFalse();
        }
    }
}

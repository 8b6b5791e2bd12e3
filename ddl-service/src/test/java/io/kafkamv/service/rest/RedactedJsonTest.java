package io.kafkamv.service.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class RedactedJsonTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void secretsInAPlanAreMaskedWhereverTheyAreAndTheRestIsKept() throws Exception {
        JsonNode plan = JSON.readTree("""
            {"steps": [{"source": {"formatOptions": {"schema.registry.url": "http://registry:8081",
                                                    "schema.registry.password": "hunter2"}}}],
             "sink": {"jdbc": {"url": "jdbc:postgresql://db/app?user=app&password=hunter2&ssl=true",
                               "user": "app", "password": "hunter2"}},
             "list": ["jdbc:postgresql://db/app?password=hunter2", 3]}""");

        JsonNode shown = RedactedJson.of(plan);

        assertThat(shown.toString()).doesNotContain("hunter2");
        assertThat(shown.at("/sink/jdbc/password").asText()).isEqualTo("***");
        assertThat(shown.at("/sink/jdbc/url").asText()).isEqualTo("jdbc:postgresql://db/app?user=app&password=***&ssl=true");
        assertThat(shown.at("/sink/jdbc/user").asText()).isEqualTo("app");
        assertThat(shown.at("/steps/0/source/formatOptions/schema.registry.url").asText()).isEqualTo("http://registry:8081");
        assertThat(shown.at("/list/1").asInt()).isEqualTo(3);
        assertThat(plan.at("/sink/jdbc/password").asText()).as("the stored plan is left alone").isEqualTo("hunter2");
    }
}

package io.kafkamv.bench;

import java.nio.file.Path;

/** What every measurement shares: the broker, the kafka-mv service on it, and where to put files. */
public record BenchContext(String bootstrapServers, KafkaMvService service, Path workDir, Path logDir) {
}

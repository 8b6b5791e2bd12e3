package io.kafkamv.bench;

import java.nio.file.Path;

/** What every measurement shares: the broker and how it runs, the kafka-mv service on it, and where to put files. */
public record BenchContext(BrokerSetup setup, String bootstrapServers, KafkaMvService service, Path workDir, Path logDir) {
}

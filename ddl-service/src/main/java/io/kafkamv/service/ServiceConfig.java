package io.kafkamv.service;

import java.nio.file.Path;
import java.util.Optional;

/**
 * How one kafka-mv instance runs. Without {@code bootstrapServers} it starts its own single-node
 * Kafka broker under {@code dataDir}; with them it joins an existing cluster and keeps nothing
 * but RocksDB state on local disk. {@code advertisedHost} is how other instances reach this one's
 * REST port, to read the parts of views that live here. {@code kafkaConfig} is a Kafka client
 * properties file (security protocol, SASL, TLS) used for every connection to the cluster;
 * {@code topicPartitions} is the partition count of new tables, views and exchanges; with
 * {@code pgUsersFile} the PostgreSQL endpoint asks for passwords (SCRAM-SHA-256); with
 * {@code restTokensFile} the REST API and metrics ask for a bearer token; with {@code pgTls} the
 * PostgreSQL endpoint speaks TLS; it takes at most {@code pgMaxConnections} clients at once. A query's result may take {@code maxResultMb} of memory
 * (0: a quarter of the heap).
 */
public record ServiceConfig(
    Path dataDir,
    String bindAddress,
    int pgPort,
    int httpPort,
    int kafkaPort,
    Optional<String> bootstrapServers,
    String jobStoreTopic,
    String advertisedHost,
    Optional<Path> kafkaConfig,
    int topicPartitions,
    Optional<Path> pgUsersFile,
    Optional<Path> restTokensFile,
    Optional<PgTlsFiles> pgTls,
    int pgMaxConnections,
    int maxResultMb) {

    /** A PEM certificate chain and its PKCS#8 key; with {@code required}, clients without TLS are refused. */
    public record PgTlsFiles(Path certificateChain, Path privateKey, boolean required) {
    }

    public static final String DEFAULT_JOB_STORE_TOPIC = "_kafka_mv_jobs";

    public boolean embeddedKafka() {
        return bootstrapServers.isEmpty();
    }
}

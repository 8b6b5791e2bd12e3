package io.kafkamv.service.launcher;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

import io.kafkamv.service.KafkaMvService;
import io.kafkamv.service.ServiceConfig;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code bin/kafka-mv}: starts one instance in the foreground until Ctrl-C or SIGTERM. */
@Command(name = "kafka-mv", mixinStandardHelpOptions = true, version = "kafka-mv 0.1.0",
    description = "Materialized views over Kafka. Without --bootstrap-servers it runs its own "
        + "single-node Kafka broker.")
public final class KafkaMvCommand implements Callable<Integer> {

    @Option(names = "--data-dir", defaultValue = "${env:KAFKA_MV_DATA_DIR:-./kafka-mv-data}",
        description = "Where the embedded broker and local state live (env KAFKA_MV_DATA_DIR; default ${DEFAULT-VALUE}).")
    Path dataDir;

    @Option(names = "--bind-address", defaultValue = "${env:KAFKA_MV_BIND_ADDRESS:-127.0.0.1}",
        description = "Address the endpoints listen on (env KAFKA_MV_BIND_ADDRESS; default ${DEFAULT-VALUE}).")
    String bindAddress;

    @Option(names = "--pg-port", defaultValue = "${env:KAFKA_MV_PG_PORT:-4566}",
        description = "PostgreSQL wire protocol port (env KAFKA_MV_PG_PORT; default ${DEFAULT-VALUE}).")
    int pgPort;

    @Option(names = "--http-port", defaultValue = "${env:KAFKA_MV_HTTP_PORT:-8088}",
        description = "REST API port (env KAFKA_MV_HTTP_PORT; default ${DEFAULT-VALUE}).")
    int httpPort;

    @Option(names = "--kafka-port", defaultValue = "${env:KAFKA_MV_KAFKA_PORT:-9092}",
        description = "Client port of the embedded broker (env KAFKA_MV_KAFKA_PORT; default ${DEFAULT-VALUE}).")
    int kafkaPort;

    @Option(names = "--bootstrap-servers", defaultValue = "${env:KAFKA_MV_BOOTSTRAP_SERVERS}",
        description = "Use this Kafka cluster instead of an embedded broker (env KAFKA_MV_BOOTSTRAP_SERVERS).")
    String bootstrapServers;

    @Option(names = "--job-store-topic", defaultValue = "${env:KAFKA_MV_JOB_STORE_TOPIC:-"
        + ServiceConfig.DEFAULT_JOB_STORE_TOPIC + "}",
        description = "Compacted topic holding the catalog and jobs (env KAFKA_MV_JOB_STORE_TOPIC; default ${DEFAULT-VALUE}).")
    String jobStoreTopic;

    @Option(names = "--advertised-host", defaultValue = "${env:KAFKA_MV_ADVERTISED_HOST:-localhost}",
        description = "How other instances reach this one's REST port (env KAFKA_MV_ADVERTISED_HOST; default ${DEFAULT-VALUE}).")
    String advertisedHost;

    @Option(names = "--kafka-config", defaultValue = "${env:KAFKA_MV_KAFKA_CONFIG}",
        description = "Kafka client properties file (security.protocol, sasl.*, ssl.*) for every connection to "
            + "the cluster (env KAFKA_MV_KAFKA_CONFIG).")
    Path kafkaConfig;

    @Option(names = "--topic-partitions", defaultValue = "${env:KAFKA_MV_TOPIC_PARTITIONS:-4}",
        description = "Partitions of new tables, views and exchanges: the most instances one view can use "
            + "(env KAFKA_MV_TOPIC_PARTITIONS; default ${DEFAULT-VALUE}).")
    int topicPartitions;

    @Option(names = "--pg-users-file", defaultValue = "${env:KAFKA_MV_PG_USERS_FILE}",
        description = "Require passwords (SCRAM-SHA-256) of the users in this file, one user:password per line "
            + "(env KAFKA_MV_PG_USERS_FILE); without it anyone who reaches the port may connect.")
    Path pgUsersFile;

    @Option(names = "--rest-tokens-file", defaultValue = "${env:KAFKA_MV_REST_TOKENS_FILE}",
        description = "Require a bearer token from this file, one holder:token per line (tokens of 16 characters or "
            + "more), for the REST API and /metrics (env KAFKA_MV_REST_TOKENS_FILE); instances of one cluster share "
            + "the file. Without it the REST API is open to anyone who reaches the port.")
    Path restTokensFile;

    @Option(names = "--pg-tls-cert", defaultValue = "${env:KAFKA_MV_PG_TLS_CERT}",
        description = "Offer TLS on the PostgreSQL endpoint with this PEM certificate chain (env KAFKA_MV_PG_TLS_CERT); "
            + "needs --pg-tls-key.")
    Path pgTlsCert;

    @Option(names = "--pg-tls-key", defaultValue = "${env:KAFKA_MV_PG_TLS_KEY}",
        description = "The unencrypted PKCS#8 PEM private key of --pg-tls-cert (env KAFKA_MV_PG_TLS_KEY).")
    Path pgTlsKey;

    @Option(names = "--pg-max-connections", defaultValue = "${env:KAFKA_MV_PG_MAX_CONNECTIONS:-100}",
        description = "Most PostgreSQL clients at once; more are refused with 53300, as PostgreSQL's max_connections "
            + "does (env KAFKA_MV_PG_MAX_CONNECTIONS; default ${DEFAULT-VALUE}).")
    int pgMaxConnections;

    @Option(names = "--max-result-mb", defaultValue = "${env:KAFKA_MV_MAX_RESULT_MB:-0}",
        description = "Memory one query's result may take before the query fails with 53200; 0 means a quarter of "
            + "the heap (env KAFKA_MV_MAX_RESULT_MB; default ${DEFAULT-VALUE}).")
    int maxResultMb;

    @Option(names = "--auth", defaultValue = "${env:KAFKA_MV_AUTH:-auto}",
        description = "password: require --pg-users-file and --rest-tokens-file; trust: run without them on purpose; "
            + "auto: trust on a loopback address only, and refuse to start listening beyond it without both files "
            + "(env KAFKA_MV_AUTH; default ${DEFAULT-VALUE}).")
    String auth;

    @Option(names = "--pg-tls-required", defaultValue = "${env:KAFKA_MV_PG_TLS_REQUIRED:-false}",
        description = "Refuse PostgreSQL clients that do not use TLS (env KAFKA_MV_PG_TLS_REQUIRED).")
    boolean pgTlsRequired;

    public static void main(String[] args) {
        System.exit(new CommandLine(new KafkaMvCommand()).execute(args));
    }

    private Optional<ServiceConfig.PgTlsFiles> pgTls() {
        if ((pgTlsCert == null) != (pgTlsKey == null)) {
            throw new CommandLine.ParameterException(new CommandLine(this),
                "--pg-tls-cert and --pg-tls-key go together: give both or neither");
        }
        if (pgTlsCert == null && pgTlsRequired) {
            throw new CommandLine.ParameterException(new CommandLine(this),
                "--pg-tls-required needs --pg-tls-cert and --pg-tls-key");
        }
        return Optional.ofNullable(pgTlsCert).map(cert -> new ServiceConfig.PgTlsFiles(cert, pgTlsKey, pgTlsRequired));
    }

    /**
     * Refuses to serve everyone who reaches a non-loopback address unless asked to: with no passwords and no tokens,
     * anyone there could read and change every object, as a PostgreSQL or Kafka image does not allow by default.
     */
    void checkAuth() throws UnknownHostException {
        boolean secured = pgUsersFile != null && restTokensFile != null;
        switch (auth) {
            case "trust" -> {
            }
            case "password" -> {
                if (!secured) {
                    throw new CommandLine.ParameterException(new CommandLine(this),
                        "--auth=password needs --pg-users-file and --rest-tokens-file");
                }
            }
            case "auto" -> {
                if (!secured && !InetAddress.getByName(bindAddress).isLoopbackAddress()) {
                    throw new CommandLine.ParameterException(new CommandLine(this), "kafka-mv would listen on "
                        + bindAddress + " without " + (pgUsersFile == null ? "--pg-users-file" : "--rest-tokens-file")
                        + ": anyone who reaches it could read and change everything. Give --pg-users-file and "
                        + "--rest-tokens-file, or --auth=trust (env KAFKA_MV_AUTH=trust) to run open on purpose");
                }
            }
            default -> throw new CommandLine.ParameterException(new CommandLine(this),
                "--auth must be password, trust or auto, not " + auth);
        }
    }

    /**
     * The job store holds the catalog: its topic's name must start with '_', which is the rule that keeps SQL's
     * CREATE SOURCE and CREATE SINK off internal topics, so that no name can slip past it.
     */
    void checkJobStoreTopic() {
        if (!jobStoreTopic.startsWith("_")) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--job-store-topic must start with _ (as _"
                + jobStoreTopic + "): SQL cannot read or write topics named so, and the job store holds the catalog");
        }
    }

    @Override
    public Integer call() throws Exception {
        checkAuth();
        checkJobStoreTopic();
        ServiceConfig config = new ServiceConfig(dataDir, bindAddress, pgPort, httpPort, kafkaPort,
            Optional.ofNullable(bootstrapServers).filter(servers -> !servers.isBlank()), jobStoreTopic, advertisedHost,
            Optional.ofNullable(kafkaConfig), topicPartitions, Optional.ofNullable(pgUsersFile),
            Optional.ofNullable(restTokensFile), pgTls(), pgMaxConnections, maxResultMb);
        long startedAt = System.nanoTime();
        KafkaMvService service = KafkaMvService.start(config);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            service.close();
            stopped.countDown();
        }, "kafka-mv-shutdown"));
        String host = "0.0.0.0".equals(bindAddress) || "127.0.0.1".equals(bindAddress) ? "localhost" : bindAddress;
        System.out.printf("kafka-mv ready: psql -h %s -p %d -U root -d dev  (REST: http://%s:%d, Kafka: %s, started in %.1f s)%n",
            host, service.pgPort(), host, service.httpPort(), service.bootstrapServers(),
            (System.nanoTime() - startedAt) / 1e9);
        System.out.flush();
        stopped.await();
        return 0;
    }
}

package io.kafkamv.service;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.kafkamv.embedded.EmbeddedKafkaCluster;
import io.kafkamv.jobstore.JobStore;
import io.kafkamv.jobstore.JobStoreTopic;
import io.kafkamv.jobstore.ObjectKind;
import io.kafkamv.service.auth.BearerTokens;
import io.kafkamv.service.background.BackgroundStatements;
import io.kafkamv.service.catalog.CatalogService;
import io.kafkamv.service.jobs.ForegroundJobWatch;
import io.kafkamv.service.jobs.JobRates;
import io.kafkamv.service.jobs.JobRunner;
import io.kafkamv.service.jobs.Offsets;
import io.kafkamv.service.metrics.ServiceMetrics;
import io.kafkamv.service.pgwire.PgAuthentication;
import io.kafkamv.service.pgwire.PgTls;
import io.kafkamv.service.pgwire.PgWireServer;
import io.kafkamv.service.query.QueryEngine;
import io.kafkamv.service.query.RelationReader;
import io.kafkamv.service.rest.RestServer;
import io.kafkamv.service.statement.CatalogTables;
import io.kafkamv.service.statement.CompilerWarmUp;
import io.kafkamv.service.statement.JobCatalogTables;
import io.kafkamv.service.statement.ServiceContext;
import io.kafkamv.service.statement.StatementExecutor;
import io.kafkamv.service.tables.TableWriter;
import io.kafkamv.service.tables.TopicSnapshot;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One running kafka-mv instance: its Kafka connection, job store, runner and endpoints, started in order. */
public final class KafkaMvService implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaMvService.class);

    private final ServiceConfig config;
    private final Deque<AutoCloseable> started = new ArrayDeque<>();
    private volatile boolean ready;
    private String bootstrapServers;
    private PgWireServer pgWire;
    private RestServer rest;

    private KafkaMvService(ServiceConfig config) {
        this.config = config;
    }

    /** Starts everything and returns once the instance serves clients. */
    public static KafkaMvService start(ServiceConfig config) throws IOException, InterruptedException {
        KafkaMvService service = new KafkaMvService(config);
        try {
            service.startAll();
        } catch (IOException | InterruptedException | RuntimeException e) {
            service.close();
            throw e;
        }
        return service;
    }

    private void startAll() throws IOException, InterruptedException {
        // First, so that it is done before the first CREATE: it takes about as long as the broker to start.
        CompilerWarmUp.start(config.topicPartitions());
        Files.createDirectories(config.dataDir());
        if (config.embeddedKafka()) {
            EmbeddedKafkaCluster kafka = EmbeddedKafkaCluster.builder()
                .dataDir(config.dataDir().resolve("kafka"))
                .clientPort(config.kafkaPort())
                .build();
            started.push(kafka);
            kafka.start();
            bootstrapServers = kafka.bootstrapServers();
        } else {
            bootstrapServers = config.bootstrapServers().orElseThrow();
        }
        Properties clientProperties = new Properties();
        if (config.kafkaConfig().isPresent()) {
            try (var reader = Files.newBufferedReader(config.kafkaConfig().get(), StandardCharsets.UTF_8)) {
                clientProperties.load(reader);
            }
        }
        clientProperties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        Admin admin = Admin.create(clientProperties);
        started.push(admin);
        short replicationFactor = replicationFactor(admin);

        JobStore store = JobStore.open(clientProperties,
            new JobStoreTopic(config.jobStoreTopic(), replicationFactor, Math.min(2, replicationFactor)),
            Duration.ofSeconds(60));
        started.push(store);
        String instanceId = instanceId(config.dataDir());
        ForegroundJobWatch watch = ForegroundJobWatch.start(store, instanceId);
        started.push(watch);

        BearerTokens tokens = config.restTokensFile().map(BearerTokens::fromFile).orElse(BearerTokens.open());
        JobRates rates = JobRates.following(store);
        ServiceMetrics metrics = new ServiceMetrics(store, rates);
        started.push(metrics);
        JobRunner runner = new JobRunner(store, clientProperties, config.dataDir().resolve("streams"), metrics.registry(),
            config.advertisedHost() + ":" + config.httpPort(), instanceId, config.topicPartitions(), replicationFactor,
            tokens);
        started.push(runner);
        metrics.bindViews(runner::localStats);
        watch.reportHydration(runner::hydratedJobs);
        runner.onHydrationChange(watch::beat);
        runner.start();
        TableWriter writer = new TableWriter(clientProperties);
        started.push(writer);
        CatalogService catalog = new CatalogService(store);
        CatalogTables catalogTables = new CatalogTables(catalog);
        JobCatalogTables jobTables = new JobCatalogTables(store, rates, runner::hydrated, runner::parallelism,
            topics -> Offsets.end(admin, topics));
        QueryEngine queries = new QueryEngine(catalog, relationReader(clientProperties, runner),
            (view, key) -> runner.reads().viewRowByKey(view.jobId(), key),
            (index, values) -> runner.reads().indexRows(index.jobId(), values, Duration.ofSeconds(10)),
            root -> {
                catalogTables.addTo(root);
                jobTables.addTo(root);
            }, config.maxResultMb() > 0 ? (long) config.maxResultMb() << 20
                : io.kafkamv.service.query.QueryEngine.defaultMaxResultBytes());
        StatementExecutor executor = new StatementExecutor(new ServiceContext(catalog, store, runner, writer, queries,
            admin, clientProperties, instanceId, config.topicPartitions(), replicationFactor, metrics));

        InetAddress bindAddress = InetAddress.getByName(config.bindAddress());
        PgAuthentication authentication = config.pgUsersFile().isPresent()
            ? PgAuthentication.fromUsersFile(config.pgUsersFile().get()) : PgAuthentication.trust();
        pgWire = new PgWireServer(bindAddress, config.pgPort(), executor, authentication, config.pgTls()
            .map(files -> PgTls.fromPem(files.certificateChain(), files.privateKey(), files.required())),
            config.pgMaxConnections());
        metrics.bindPgWire(pgWire::openConnections, pgWire::openSessions);
        started.push(pgWire);
        BackgroundStatements background = new BackgroundStatements(executor, store, clientProperties, instanceId).start();
        started.push(background);
        // Not ready while the job store cannot be read: the catalog here would be stale and every write would wait.
        rest = new RestServer(config.bindAddress(), config.httpPort(), () -> ready && store.readProblem().isEmpty(), executor, background, store, runner, rates,
            metrics, tokens, clientProperties);
        started.push(rest);
        ready = true;
    }

    private static RelationReader relationReader(Properties clientProperties, JobRunner runner) {
        return (entry, columns, filter) -> {
            if (entry.kind() == ObjectKind.TABLE || entry.kind() == ObjectKind.SOURCE) {
                return QueryEngine.picked(TopicSnapshot.read(clientProperties, CatalogService.relation(entry)), columns);
            }
            return () -> new ReadableView(entry, runner.reads(), columns, filter);
        };
    }

    /** A stable id for this instance, kept in its data dir, so that a restart knows its own jobs. */
    private static String instanceId(Path dataDir) throws IOException {
        Path file = dataDir.resolve("instance.id");
        if (Files.exists(file)) {
            return Files.readString(file, StandardCharsets.UTF_8).trim();
        }
        String id = UUID.randomUUID().toString();
        Files.writeString(file, id, StandardCharsets.UTF_8);
        return id;
    }

    private short replicationFactor(Admin admin) throws InterruptedException {
        try {
            int brokers = admin.describeCluster().nodes().get(60, TimeUnit.SECONDS).size();
            return (short) Math.min(3, brokers);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Cannot reach Kafka at " + bootstrapServers + ": " + e.getMessage(), e);
        }
    }

    public boolean isReady() {
        return ready;
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    public int pgPort() {
        return pgWire.port();
    }

    public int httpPort() {
        return rest.port();
    }

    /** Stops the endpoints first, so no client sees a half-stopped service, then jobs, then Kafka. */
    @Override
    public void close() {
        ready = false;
        while (!started.isEmpty()) {
            AutoCloseable component = started.pop();
            try {
                component.close();
            } catch (Exception e) {
                LOG.warn("Stopping {} failed: {}", component.getClass().getSimpleName(), e.toString());
            }
        }
        LOG.info("kafka-mv stopped");
    }
}

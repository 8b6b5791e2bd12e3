package io.kafkamv.service.rest;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.function.BooleanSupplier;

import io.javalin.Javalin;
import io.javalin.http.HttpStatus;
import io.javalin.http.staticfiles.Location;
import io.javalin.json.JavalinJackson;
import io.kafkamv.jobstore.JobStore;
import io.kafkamv.service.auth.BearerTokens;
import io.kafkamv.service.jobs.JobRates;
import io.kafkamv.service.jobs.JobRunner;
import io.kafkamv.service.metrics.ServiceMetrics;
import io.kafkamv.service.statement.StatementExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The HTTP endpoint: the REST API under {@code /v1}, health, readiness, metrics, the OpenAPI description and the web console at {@code /}. */
public final class RestServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RestServer.class);

    private final Javalin app;

    public RestServer(String host, int port, BooleanSupplier ready, StatementExecutor executor,
                      io.kafkamv.service.background.BackgroundStatements background, JobStore store, JobRunner runner, JobRates rates, ServiceMetrics metrics, BearerTokens tokens,
                      java.util.Properties clientProperties) {
        StatementsApi statements = new StatementsApi(executor, background, store);
        JobsApi jobs = new JobsApi(store, executor, rates, runner::hydrated, runner::parallelism);
        ObjectsApi objects = new ObjectsApi(store, runner, executor);
        ViewsApi views = new ViewsApi(store, runner.reads());
        SourcesApi sources = new SourcesApi(store, clientProperties);
        byte[] openApi = resource("/openapi.json");
        this.app = Javalin.create(config -> {
            config.startup.showJavalinBanner = false;
            config.startup.showOldJavalinVersionWarning = false;
            config.jetty.host = host;
            config.jetty.port = port;
            config.jsonMapper(new JavalinJackson(JobStore.mapper(), false));
            // The web console: static pages that use the API below, nothing the API cannot do.
            config.staticFiles.add(files -> {
                files.hostedPath = "/";
                files.directory = "/console";
                files.location = Location.CLASSPATH;
            });
            config.routes.before(ctx -> authorize(ctx, tokens));
            config.routes.get("/healthz", ctx -> ctx.json(Map.of("status", "ok")));
            config.routes.get("/readyz", ctx -> {
                boolean isReady = ready.getAsBoolean();
                ctx.status(isReady ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE).json(Map.of("ready", isReady));
            });
            config.routes.get("/metrics", ctx -> ctx.contentType("text/plain; version=0.0.4; charset=utf-8")
                .result(metrics.scrape()));
            config.routes.get("/openapi.json", ctx -> ctx.contentType("application/json").result(openApi));
            config.routes.post("/v1/statements", statements::post);
            config.routes.get("/v1/statements/{id}", statements::get);
            config.routes.delete("/v1/statements/{id}", statements::delete);
            config.routes.get("/v1/jobs", jobs::list);
            config.routes.get("/v1/jobs/{id}", jobs::get);
            config.routes.delete("/v1/jobs/{id}", jobs::cancel);
            config.routes.post("/v1/jobs/{id}/wait", jobs::await);
            config.routes.post("/v1/jobs/{id}/pause", jobs::pause);
            config.routes.post("/v1/jobs/{id}/resume", jobs::resume);
            config.routes.get("/internal/v1/jobs/{id}/rows", ctx -> runner.reads().localViewRows(Long.parseLong(ctx.pathParam("id")),
                    partitions(ctx.queryParam("partitions")))
                .ifPresentOrElse(rows -> ctx.json(Map.of("rows", rows.stream()
                        .map(row -> java.util.Base64.getEncoder().encodeToString(row)).toList())),
                    () -> Problem.respond(ctx, Problem.of(503, "Service unavailable",
                        "job " + ctx.pathParam("id") + " does not hold all of those partitions ready on this instance"))));
            config.routes.get("/internal/v1/jobs/{id}/index", ctx -> runner.reads().localIndexRows(Long.parseLong(ctx.pathParam("id")),
                    java.util.Base64.getUrlDecoder().decode(java.util.Objects.requireNonNull(ctx.queryParam("prefix"))))
                .ifPresentOrElse(rows -> ctx.json(Map.of("rows", rows.stream()
                        .map(row -> java.util.Base64.getEncoder().encodeToString(row)).toList())),
                    () -> Problem.respond(ctx, Problem.of(503, "Service unavailable",
                        "index job " + ctx.pathParam("id") + " is not ready on this instance"))));
            config.routes.get("/v1/sources", sources::list);
            config.routes.get("/v1/objects", objects::list);
            config.routes.get("/v1/objects/{name}", objects::get);
            config.routes.get("/v1/views", views::list);
            config.routes.get("/v1/views/{name}", views::get);
            config.routes.get("/v1/views/{name}/rows", views::rows);
            config.routes.exception(Exception.class, (exception, ctx) -> {
                boolean badRequest = exception instanceof IllegalArgumentException
                    || exception.getClass().getName().contains("Json");
                if (!badRequest) {
                    LOG.error("REST request {} {} failed", ctx.method(), ctx.path(), exception);
                }
                int status = badRequest ? 400 : 500;
                Problem.respond(ctx, Problem.of(status,
                    badRequest ? "Bad request" : "Internal server error", String.valueOf(exception.getMessage())));
            });
        });
        app.start();
    }

    /**
     * With tokens configured, the API, the internal API and the metrics need one; health, readiness, the
     * OpenAPI description and the console's static pages (which hold no data) do not. A refused request
     * learns nothing but that it was refused.
     */
    private static void authorize(io.javalin.http.Context ctx, BearerTokens tokens) {
        String path = ctx.path();
        if (!tokens.required() || !isGuarded(path)) {
            return;
        }
        if (tokens.holder(ctx.header("Authorization")).isEmpty()) {
            LOG.info("Refused {} {} from {}: {}", ctx.method(), path, ctx.ip(),
                ctx.header("Authorization") == null ? "no bearer token" : "unknown bearer token");
            ctx.header("WWW-Authenticate", "Bearer realm=\"kafka-mv\"");
            Problem.respond(ctx, Problem.of(401, "Unauthorized", "this API needs a valid bearer token"));
            ctx.skipRemainingHandlers();
        }
    }

    /**
     * Whether a request for this path needs a token: every path does but the few that hold no data (health,
     * readiness, the OpenAPI description and the console's static pages), so that a new route is guarded without
     * anyone remembering to. Those are matched exactly: a path that reaches a route under another spelling (the
     * router serves /metrics/ as /metrics) is not one of them.
     */
    static boolean isGuarded(String path) {
        return !OPEN_PATHS.contains(path) && !CONSOLE_FILE.matcher(path).matches();
    }

    private static final java.util.Set<String> OPEN_PATHS = java.util.Set.of("/", "/healthz", "/readyz", "/openapi.json");
    /** The console's files, served from /console on the classpath: a name at the top, as index.html or console.js. */
    private static final java.util.regex.Pattern CONSOLE_FILE = java.util.regex.Pattern.compile("/[a-z]+\\.(html|js|css)");

    public int port() {
        return app.port();
    }

    /** The partitions an internal read asks for: {@code 0,3,5}; null (all this instance holds) when it names none. */
    private static java.util.Set<Integer> partitions(String list) {
        if (list == null) {
            return null;
        }
        if (list.isBlank()) {
            return java.util.Set.of();
        }
        return java.util.Arrays.stream(list.split(",")).map(Integer::valueOf)
            .collect(java.util.stream.Collectors.toCollection(java.util.TreeSet::new));
    }

    private static byte[] resource(String name) {
        try (InputStream in = RestServer.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " is missing from the classpath");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        app.stop();
    }
}

package io.kafkamv.service.rest;

import java.util.Map;
import java.util.function.BooleanSupplier;

import io.javalin.Javalin;
import io.javalin.http.HttpStatus;

/** The HTTP endpoint: health and readiness now, the REST API as it grows. */
public final class RestServer implements AutoCloseable {

    private final Javalin app;

    public RestServer(String host, int port, BooleanSupplier ready) {
        this.app = Javalin.create(config -> {
            config.startup.showJavalinBanner = false;
            config.startup.showOldJavalinVersionWarning = false;
            config.jetty.host = host;
            config.jetty.port = port;
            config.routes.get("/healthz", ctx -> ctx.json(Map.of("status", "ok")));
            config.routes.get("/readyz", ctx -> {
                boolean isReady = ready.getAsBoolean();
                ctx.status(isReady ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE)
                    .json(Map.of("ready", isReady));
            });
        });
        app.start();
    }

    public int port() {
        return app.port();
    }

    @Override
    public void close() {
        app.stop();
    }
}

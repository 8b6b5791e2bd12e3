package io.kafkamv.it.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One kafka-mv child process shared by the tests of a class, on a fresh data dir:
 * {@code @RegisterExtension static final ServiceExtension SERVICE = new ServiceExtension();}
 */
public final class ServiceExtension implements BeforeAllCallback, AfterAllCallback {

    private ServiceProcess service;
    private Path workDir;

    public ServiceProcess service() {
        if (service == null) {
            throw new IllegalStateException("the service starts before the first test; register the extension statically");
        }
        return service;
    }

    public Psql psql() {
        return new Psql(service().pgPort());
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://localhost:" + service().pgPort() + "/dev";
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        workDir = Files.createTempDirectory("kafka-mv-it-");
        service = ServiceProcess.start(workDir.resolve("data"));
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        if (service != null) {
            service.close();
            service = null;
        }
        if (workDir != null) {
            try (Stream<Path> paths = Files.walk(workDir)) {
                for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(path);
                }
            }
        }
    }
}

package io.kafkamv.it.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * Keeps the end of what the service processes of a failed test logged in
 * {@code target/failed-tests.log}, which {@code .ci/run} prints last: a failure in CI, where only
 * Maven's output survives, can then be understood from that output alone. Registered for every
 * test by JUnit's extension auto-detection (failsafe's configuration in the root pom).
 */
public final class ServiceLogsOnFailure implements BeforeEachCallback, TestWatcher {

    private static final int LINES_PER_LOG = 80;
    private static final int LINE_LENGTH = 250;
    private static final Path EXCERPTS = Path.of("target", "failed-tests.log");
    private static final List<ServiceProcess> STARTED = new CopyOnWriteArrayList<>();

    /** Called by {@link ServiceProcess} for each process it starts. */
    static void started(ServiceProcess process) {
        STARTED.add(process);
    }

    /** Forgets the processes of earlier tests; a class-wide one (ServiceExtension) still runs and stays. */
    @Override
    public void beforeEach(ExtensionContext context) {
        STARTED.removeIf(process -> !process.isAlive());
    }

    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
        keep(context.getRequiredTestClass().getSimpleName() + "." + context.getDisplayName(), cause,
            STARTED.stream().map(ServiceProcess::log).toList());
    }

    /** Keeps the end of these logs under a title, e.g. for a service that did not start (no test has failed yet then). */
    static void keep(String title, Throwable cause, List<Path> logs) {
        StringBuilder excerpt = new StringBuilder();
        excerpt.append("==== ").append(title).append(" failed: ").append(cause).append('\n');
        for (Path log : logs) {
            excerpt.append("---- the last ").append(LINES_PER_LOG).append(" lines of ").append(log.getFileName())
                .append(", without stack frames ----\n");
            try {
                // Decoded leniently: a stray byte must not cost the whole excerpt.
                List<String> lines = new String(Files.readAllBytes(log), StandardCharsets.UTF_8).lines()
                    .filter(line -> !line.startsWith("\tat ") && !line.startsWith("\t... "))
                    .map(line -> line.length() > LINE_LENGTH ? line.substring(0, LINE_LENGTH) + " ..." : line)
                    .toList();
                lines.subList(Math.max(0, lines.size() - LINES_PER_LOG), lines.size())
                    .forEach(line -> excerpt.append(line).append('\n'));
            } catch (IOException e) {
                excerpt.append("(cannot read it: ").append(e).append(")\n");
            }
        }
        try {
            Files.writeString(EXCERPTS, excerpt, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            System.out.println("(cannot keep it in " + EXCERPTS + ": " + e + ")");
        }
    }
}

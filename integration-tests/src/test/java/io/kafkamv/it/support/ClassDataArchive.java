package io.kafkamv.it.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A class data sharing archive of the service's startup classes (the JDK's dynamic AppCDS archive), made once per
 * test JVM by starting the service and stopping it. A service started with it was ready in 2-3 s with 6 s of CPU,
 * against 8 s and 14 s without (on CI's two cores), and the suite starts well over a hundred services, most of its
 * CPU time. Only how classes load changes, not what runs. If the archive cannot be made, services start without.
 *
 * <p>The JVM writes its warnings to stdout, where the tests read the service's ready line and nothing drains it
 * after: making an archive warns of hundreds of classes it skips. So every service JVM sends them to stderr, its log.
 */
final class ClassDataArchive {

    static final List<String> LOG_TO_STDERR = List.of("-Xlog:disable", "-Xlog:all=warning:stderr");

    private static Path archive;
    private static boolean tried;

    private ClassDataArchive() {
    }

    /** The JVM options that use the archive for this jar, made now if needed; none if it cannot be made. */
    static synchronized List<String> options(Path javaBinary, Path jar) {
        if (!tried) {
            tried = true;
            archive = make(javaBinary, jar);
        }
        return archive == null ? List.of() : List.of("-XX:SharedArchiveFile=" + archive);
    }

    private static Path make(Path javaBinary, Path jar) {
        Path target = Paths.get("target", "kafka-mv-fork" + System.getProperty("kafkamv.it.fork", "1") + ".jsa")
            .toAbsolutePath();
        Path partial = target.resolveSibling(target.getFileName() + ".partial");
        try {
            if (Files.exists(target) && Files.getLastModifiedTime(target).compareTo(Files.getLastModifiedTime(jar)) > 0) {
                return target;
            }
            Files.deleteIfExists(target);
            Files.deleteIfExists(partial);
            Path dataDir = Files.createTempDirectory("kafka-mv-cds-");
            List<String> command = new java.util.ArrayList<>(List.of(javaBinary.toString(), "-Xmx1g",
                "-XX:ArchiveClassesAtExit=" + partial));
            command.addAll(LOG_TO_STDERR);
            command.addAll(List.of("-jar", jar.toString(), "--data-dir", dataDir.resolve("data").toString(),
                "--pg-port", String.valueOf(FreePorts.next()), "--http-port", String.valueOf(FreePorts.next()),
                "--kafka-port", String.valueOf(FreePorts.next())));
            Process process = new ProcessBuilder(command)
                .redirectError(dataDir.resolve("stderr.log").toFile())
                .start();
            CompletableFuture<Boolean> ready = new CompletableFuture<>();
            Thread reader = new Thread(() -> {
                try (BufferedReader lines = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = lines.readLine()) != null) {
                        if (line.startsWith("kafka-mv ready:")) {
                            ready.complete(true);
                        }
                    }
                } catch (IOException ignored) {
                    // The process is gone; ready says whether it got that far.
                }
                ready.complete(false);
            }, "class-data-archive");
            reader.setDaemon(true);
            reader.start();
            boolean started = ready.get(90, TimeUnit.SECONDS);
            // A clean exit (SIGTERM) is when the JVM writes the archive.
            process.destroy();
            boolean exited = process.waitFor(60, TimeUnit.SECONDS);
            if (!exited) {
                process.destroyForcibly();
            }
            try (var files = Files.walk(dataDir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
            }
            if (started && exited && Files.size(partial) > 0) {
                Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
                return target;
            }
        } catch (Exception e) {
            System.err.println("services start without a class data archive: " + e);
        }
        return null;
    }
}

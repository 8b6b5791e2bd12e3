package io.kafkamv.service.jobs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.kafkamv.jobstore.Job;
import org.apache.kafka.common.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes the local state (Kafka Streams' directory of an application, under the state dir) of jobs that will not
 * run here again: dropped or cancelled while this instance was down, failed, or of an earlier generation. Kafka
 * Streams deletes it only when a running application is cleaned up on this instance (review finding 13), so
 * otherwise every such view's RocksDB files would stay on disk for good.
 */
final class LocalStateSweeper {

    private static final Logger LOG = LoggerFactory.getLogger(LocalStateSweeper.class);
    private static final Pattern APPLICATION = Pattern.compile("kmv-job-(\\d+)(?:-g(\\d+))?");

    private final Path stateDir;

    LocalStateSweeper(Path stateDir) {
        this.stateDir = stateDir;
    }

    /**
     * Deletes the directory of every job application that is not {@code running} here and whose job is not
     * running (creating or created) in that generation; returns the application ids deleted.
     */
    List<String> sweep(Map<Long, Job> jobs, Set<String> running) {
        List<String> deleted = new ArrayList<>();
        if (!Files.isDirectory(stateDir)) {
            return deleted;
        }
        try (Stream<Path> applications = Files.list(stateDir)) {
            for (Path directory : applications.filter(Files::isDirectory).toList()) {
                String application = directory.getFileName().toString();
                Matcher name = APPLICATION.matcher(application);
                if (!name.matches() || running.contains(application)) {
                    continue;
                }
                Job job = jobs.get(Long.parseLong(name.group(1)));
                int generation = name.group(2) == null ? 0 : Integer.parseInt(name.group(2));
                if (job != null && job.status().isRunning() && job.generation() == generation) {
                    // Kept for when the job starts here: restoring from it is faster than from the changelogs.
                    continue;
                }
                try {
                    Utils.delete(directory.toFile());
                    deleted.add(application);
                    LOG.info("Deleted the local state of {}: {}", application, job == null ? "its job is gone"
                        : "its job is " + job.status() + " in generation " + job.generation());
                } catch (IOException e) {
                    LOG.warn("Cannot delete the local state of {} yet: {}", application, e.toString());
                }
            }
        } catch (IOException e) {
            LOG.warn("Cannot list the state directory {}: {}", stateDir, e.toString());
        }
        return deleted;
    }
}

package io.kafkamv.it.support;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;


/** One row of SHOW JOBS as psql prints it. */
public record ShownJob(long id, String statement, double percent) {

    public static List<ShownJob> list(Psql psql) throws IOException, InterruptedException {
        Psql.Result result = psql.run("SHOW JOBS", "-A", "-t");
        if (result.exitCode() != 0) {
            throw new IOException("SHOW JOBS failed: " + result.stderr());
        }
        List<ShownJob> jobs = new ArrayList<>();
        for (String line : result.stdout().split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            String[] fields = line.split("\\|");
            jobs.add(new ShownJob(Long.parseLong(fields[0]), fields[1],
                // The percentage, before what may keep the job from running on this instance.
                Double.parseDouble(fields[2].substring(0, fields[2].indexOf('%')))));
        }
        return jobs;
    }

    public static ShownJob only(Psql psql) throws IOException, InterruptedException {
        List<ShownJob> jobs = list(psql);
        if (jobs.size() != 1) {
            throw new AssertionError("expected one job, SHOW JOBS shows " + jobs);
        }
        return jobs.get(0);
    }
}

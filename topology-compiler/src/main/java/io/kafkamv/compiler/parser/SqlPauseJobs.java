package io.kafkamv.compiler.parser;

import java.util.List;

import org.apache.calcite.sql.parser.SqlParserPos;

/** {@code PAUSE JOB[S] id, ...} or {@code RESUME JOB[S] id, ...}. */
public final class SqlPauseJobs extends SqlCommand {

    private final List<Long> jobIds;
    private final boolean resume;

    public SqlPauseJobs(SqlParserPos pos, List<Long> jobIds, boolean resume) {
        super(pos, resume ? "RESUME" : "PAUSE");
        this.jobIds = List.copyOf(jobIds);
        this.resume = resume;
    }

    public List<Long> jobIds() {
        return jobIds;
    }

    /** RESUME rather than PAUSE. */
    public boolean resume() {
        return resume;
    }
}

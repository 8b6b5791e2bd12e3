package io.kafkamv.compiler.parser;

import java.util.List;

import org.apache.calcite.sql.parser.SqlParserPos;

/** {@code CANCEL JOBS id [, id ...]}. */
public final class SqlCancelJobs extends SqlCommand {

    private final List<Long> jobIds;

    public SqlCancelJobs(SqlParserPos pos, List<Long> jobIds) {
        super(pos, "CANCEL JOBS");
        this.jobIds = List.copyOf(jobIds);
    }

    public List<Long> jobIds() {
        return jobIds;
    }
}

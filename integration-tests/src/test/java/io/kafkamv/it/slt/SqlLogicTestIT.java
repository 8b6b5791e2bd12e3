package io.kafkamv.it.slt;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.kafkamv.it.support.PostgresAnswers;
import io.kafkamv.it.support.ServiceExtension;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Runs every {@code src/test/slt/*.slt} file against kafka-mv and against the real PostgreSQL: each record must
 * give its expected result on both (unless it is marked {@code onlyif} or {@code skipif} an engine), so the
 * expected results are PostgreSQL's. On PostgreSQL a materialized view is a plain view, which, like kafka-mv's, is
 * always up to date, and {@code FLUSH} is skipped; each file runs in a schema of its own there. Prints the count
 * of records and how many ran on each engine.
 */
class SqlLogicTestIT {

    @RegisterExtension
    static final ServiceExtension SERVICE = new ServiceExtension();

    private static final Path CORPUS = Path.of("src/test/slt");
    private static final Pattern MATERIALIZED = Pattern.compile("(?i)^(CREATE|DROP)\\s+MATERIALIZED\\s+VIEW");

    @TestFactory
    Stream<DynamicTest> everyRecordGivesPostgresAnswerOnBothEngines() throws Exception {
        List<Path> files;
        try (Stream<Path> listed = Files.list(CORPUS)) {
            files = listed.filter(path -> path.toString().endsWith(".slt")).sorted().toList();
        }
        assertThat(files).as("the corpus in " + CORPUS).isNotEmpty();
        return files.stream().map(file -> DynamicTest.dynamicTest(file.getFileName().toString(), () -> run(file)));
    }

    private static void run(Path file) throws Exception {
        SqlLogicTest test = SqlLogicTest.read(file);
        String schema = "slt_" + file.getFileName().toString().replaceAll("\\W", "_").toLowerCase(Locale.ROOT);
        List<String> failures = new ArrayList<>();
        int ours;
        int theirs;
        try (Connection kafkaMv = DriverManager.getConnection(SERVICE.jdbcUrl(), "root", "");
             Connection postgres = PostgresAnswers.postgres()) {
            try (Statement statement = postgres.createStatement()) {
                statement.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
                statement.execute("CREATE SCHEMA " + schema);
                statement.execute("SET search_path TO " + schema);
            }
            ours = runAll(test, "kafka-mv", kafkaMv, failures);
            theirs = runAll(test, "postgres", postgres, failures);
        }
        System.out.printf("sqllogictest %s: %d records, %d run on kafka-mv, %d on postgres, %d failed%n",
            file.getFileName(), test.records().size(), ours, theirs, failures.size());
        assertThat(failures).as("records of " + file + " that did not give their expected result").isEmpty();
    }

    private static int runAll(SqlLogicTest test, String engine, Connection connection, List<String> failures) {
        int ran = 0;
        for (SqlLogicTest.Record record : test.records()) {
            String sql = engine.equals("postgres") ? forPostgres(record.sql()) : record.sql();
            if (!record.runsOn(engine) || sql == null) {
                continue;
            }
            ran++;
            String failure = check(record, sql, connection);
            if (failure != null) {
                failures.add(engine + " at " + test.file().getFileName() + ":" + record.line() + ": " + failure);
            }
        }
        return ran;
    }

    /** The statement as PostgreSQL runs it, or null when it has no PostgreSQL form. */
    private static String forPostgres(String sql) {
        if (sql.strip().equalsIgnoreCase("FLUSH")) {
            return null;
        }
        return MATERIALIZED.matcher(sql.strip()).replaceFirst("$1 VIEW");
    }

    /** Null when the record gives its expected result, else what it gave instead. */
    private static String check(SqlLogicTest.Record record, String sql, Connection connection) {
        try (Statement statement = connection.createStatement()) {
            boolean rows = statement.execute(sql);
            switch (record.kind()) {
                case STATEMENT_OK:
                    return null;
                case STATEMENT_ERROR, QUERY_ERROR:
                    return "expected an error" + (record.error() == null ? "" : " like " + record.error()) + ", got none";
                default:
                    if (!rows) {
                        return "expected rows, got none";
                    }
                    List<String> actual = rows(statement.getResultSet());
                    if (record.sort().equals("rowsort")) {
                        Collections.sort(actual);
                    }
                    return actual.equals(record.expected()) ? null
                        : "expected\n  " + String.join("\n  ", record.expected()) + "\ngot\n  " + String.join("\n  ", actual);
            }
        } catch (SQLException e) {
            boolean errorExpected = record.kind() == SqlLogicTest.Kind.STATEMENT_ERROR
                || record.kind() == SqlLogicTest.Kind.QUERY_ERROR;
            if (!errorExpected) {
                return "failed: " + e.getMessage();
            }
            return record.error() == null || Pattern.compile(record.error()).matcher(e.getMessage()).find() ? null
                : "expected an error like " + record.error() + ", got: " + e.getMessage();
        }
    }

    private static List<String> rows(ResultSet resultSet) throws SQLException {
        List<String> rows = new ArrayList<>();
        int columns = resultSet.getMetaData().getColumnCount();
        while (resultSet.next()) {
            List<String> values = new ArrayList<>();
            for (int i = 1; i <= columns; i++) {
                String value = resultSet.getString(i);
                values.add(value == null ? "NULL" : value.isEmpty() ? "(empty)" : value);
            }
            rows.add(String.join(" ", values));
        }
        resultSet.close();
        return rows;
    }
}

package io.kafkamv.compiler.parser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kafkamv.compiler.error.CompileException;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSetOption;
import org.apache.calcite.sql.ddl.SqlColumnDeclaration;
import org.junit.jupiter.api.Test;

class KafkaMvGrammarTest {

    @Test
    void createTableWithColumnsPrimaryKeyAndOptions() {
        SqlCreateRelation table = parse(
            "CREATE TABLE IF NOT EXISTS Orders (id BIGINT PRIMARY KEY, item TEXT NOT NULL, price DECIMAL(10, 2)) "
                + "WITH (partitions = 4, 'retention.ms' = '1000')", SqlCreateRelation.class);

        assertThat(table.kind()).isEqualTo(SqlObjectKind.TABLE);
        assertThat(table.ifNotExists()).isTrue();
        assertThat(table.name().getSimple()).isEqualTo("orders");
        assertThat(table.columns()).hasSize(3);
        SqlColumnDeclaration item = (SqlColumnDeclaration) table.columns().get(1);
        assertThat(item.name.getSimple()).isEqualTo("item");
        assertThat(item.dataType.getNullable()).isFalse();
        assertThat(table.primaryKey()).map(node -> ((SqlIdentifier) node).getSimple()).containsExactly("id");
        assertThat(table.options()).containsEntry("partitions", "4").containsEntry("retention.ms", "1000");
    }

    @Test
    void postgresInfixCastReadsAsACastAndBindsTighterThanArithmetic() {
        org.apache.calcite.sql.SqlSelect query = (org.apache.calcite.sql.SqlSelect)
            SqlStatementParser.parse("SELECT a::int8 + 1, '2024-01-02'::date FROM t");

        org.apache.calcite.sql.SqlBasicCall plus = (org.apache.calcite.sql.SqlBasicCall) query.getSelectList().get(0);
        assertThat(plus.getKind()).isEqualTo(org.apache.calcite.sql.SqlKind.PLUS);
        assertThat(plus.operand(0).getKind()).isEqualTo(org.apache.calcite.sql.SqlKind.CAST);
        assertThat(query.getSelectList().get(1).getKind()).isEqualTo(org.apache.calcite.sql.SqlKind.CAST);
    }

    @Test
    void createSourceWithDottedOptions() {
        SqlCreateRelation source = parse("CREATE SOURCE s (v INT) WITH (connector = 'kafka', topic = 'in', "
            + "scan.startup.mode = 'earliest')", SqlCreateRelation.class);

        assertThat(source.kind()).isEqualTo(SqlObjectKind.SOURCE);
        assertThat(source.options()).containsEntry("scan.startup.mode", "earliest").containsEntry("topic", "in");
    }

    @Test
    void createSourceIncludesPartsOfTheRecordAsRisingWaveWritesThem() {
        SqlCreateRelation source = parse("CREATE SOURCE s (v INT) INCLUDE timestamp AS ts INCLUDE header 'trace' "
            + "INCLUDE partition INCLUDE key AS k WITH (connector = 'kafka', topic = 'in')", SqlCreateRelation.class);

        assertThat(source.includes()).extracting(SourceInclude::what, SourceInclude::header, SourceInclude::column)
            .containsExactly(org.assertj.core.groups.Tuple.tuple("timestamp", null, "ts"),
                org.assertj.core.groups.Tuple.tuple("header", "trace", null),
                org.assertj.core.groups.Tuple.tuple("partition", null, null),
                org.assertj.core.groups.Tuple.tuple("key", null, "k"));
        assertThat(source.options()).containsEntry("topic", "in");
        assertThat(io.kafkamv.compiler.SqlCompiler.normalize(source))
            .contains("INCLUDE TIMESTAMP AS \"ts\"").contains("INCLUDE HEADER 'trace'");
    }

    @Test
    void createMaterializedViewKeepsItsQuery() {
        SqlCreateMaterializedView view = parse(
            "create materialized view m as select v1, count(*) from t group by v1", SqlCreateMaterializedView.class);

        assertThat(view.name().getSimple()).isEqualTo("m");
        assertThat(view.ifNotExists()).isFalse();
        assertThat(view.query().toString()).contains("GROUP BY");
    }

    @Test
    void sinksIndexesAndDrops() {
        assertThat(parse("CREATE SINK k FROM m WITH (connector='kafka', topic='out')", SqlCreateSink.class).from())
            .map(SqlIdentifier::getSimple).contains("m");
        assertThat(parse("CREATE SINK k AS SELECT * FROM m WITH (connector='kafka')", SqlCreateSink.class).query())
            .isPresent();
        assertThat(parse("CREATE INDEX i ON m (v2)", SqlCreateIndex.class).on().getSimple()).isEqualTo("m");

        SqlDropObject drop = parse("DROP MATERIALIZED VIEW IF EXISTS m CASCADE", SqlDropObject.class);
        assertThat(drop.kind()).isEqualTo(SqlObjectKind.MATERIALIZED_VIEW);
        assertThat(drop.ifExists()).isTrue();
        assertThat(drop.cascade()).isTrue();
    }

    @Test
    void serviceCommands() {
        assertThat(parse("SHOW JOBS", SqlShow.class).what()).isEqualTo(SqlShow.What.JOBS);
        assertThat(parse("show materialized views", SqlShow.class).what()).isEqualTo(SqlShow.What.MATERIALIZED_VIEWS);
        assertThat(parse("SHOW background_ddl", SqlShow.class).variable()).contains("background_ddl");
        assertThat(parse("SHOW JOBS", SqlShow.class).like()).isEmpty();
        assertThat(parse("SHOW JOBS LIKE 'orders%'", SqlShow.class).like()).contains("orders%");
        assertThat(parse("CANCEL JOBS 1002, 1003", SqlCancelJobs.class).jobIds()).containsExactly(1002L, 1003L);
        assertThat(parse("CANCEL JOB 1002", SqlCancelJobs.class).jobIds()).containsExactly(1002L);
        assertThat(parse("WAIT", SqlWait.class).target()).isEmpty();
        assertThat(parse("WAIT MATERIALIZED VIEW m", SqlWait.class).target())
            .contains(new SqlWait.Target(SqlObjectKind.MATERIALIZED_VIEW, "m"));
        assertThat(parse("WAIT SINK s", SqlWait.class).target()).contains(new SqlWait.Target(SqlObjectKind.SINK, "s"));
        assertThat(parse("wait index i", SqlWait.class).target()).contains(new SqlWait.Target(SqlObjectKind.INDEX, "i"));
        assertThat(parse("WAIT TABLE t", SqlWait.class).target()).contains(new SqlWait.Target(SqlObjectKind.TABLE, "t"));
        assertThat(parse("FLUSH", SqlNode.class)).isInstanceOf(SqlFlush.class);
        SqlAlterObject alter = parse("ALTER MATERIALIZED VIEW m SET BACKFILL_RATE_LIMIT = 0", SqlAlterObject.class);
        assertThat(alter.kind()).isEqualTo(SqlObjectKind.MATERIALIZED_VIEW);
        assertThat(alter.option()).isEqualTo("backfill_rate_limit");
        assertThat(alter.value()).contains("0");
        SqlAlterObject sink = parse("ALTER SINK s SET BACKFILL_RATE_LIMIT TO DEFAULT", SqlAlterObject.class);
        assertThat(sink.kind()).isEqualTo(SqlObjectKind.SINK);
        assertThat(sink.value()).isEmpty();
        assertThat(parse("ALTER INDEX i SET backfill_rate_limit = -1", SqlAlterObject.class).value()).contains("-1");
        assertThat(parse("CREATE MATERIALIZED VIEW v WITH (backfill_rate_limit = -1) AS SELECT 1",
            SqlCreateMaterializedView.class).options()).containsEntry("backfill_rate_limit", "-1");
        assertThat(parse("CREATE MATERIALIZED VIEW v AS SELECT 1", SqlCreateMaterializedView.class).options()).isEmpty();
        assertThat(parse("CREATE INDEX i ON v (a) WITH (backfill_rate_limit = 100)", SqlCreateIndex.class).options())
            .containsEntry("backfill_rate_limit", "100");
        SqlPauseJobs pause = parse("PAUSE JOB 1002", SqlPauseJobs.class);
        assertThat(pause.jobIds()).containsExactly(1002L);
        assertThat(pause.resume()).isFalse();
        assertThat(parse("RESUME JOBS 1002, 1003", SqlPauseJobs.class).resume()).isTrue();
        assertThat(((SqlIdentifier) parse("SET BACKGROUND_DDL = true", SqlSetOption.class).name()).getSimple())
            .isEqualTo("background_ddl");
    }

    @Test
    void setAndResetAsPostgresWritesThem() {
        assertThat(setValue("SET background_ddl TO true")).isEqualTo("TRUE");
        assertThat(setValue("SET SESSION backfill_rate_limit = 100")).isEqualTo("100");
        assertThat(setValue("SET LOCAL application_name TO 'notebook'")).isEqualTo("'notebook'");
        assertThat(setValue("SET backfill_rate_limit TO DEFAULT")).isEqualTo("DEFAULT");
        assertThat(parse("SET search_path TO public, kafka_mv", SqlSetOption.class).getValue())
            .isInstanceOfSatisfying(org.apache.calcite.sql.SqlNodeList.class, list -> assertThat(list).hasSize(2));
        SqlSetOption zone = parse("SET TIME ZONE 'UTC'", SqlSetOption.class);
        assertThat(((SqlIdentifier) zone.name()).getSimple()).isEqualTo("timezone");
        assertThat(parse("RESET background_ddl", SqlSetOption.class).getValue()).isNull();
        assertThat(parse("RESET ALL", SqlSetOption.class).getValue()).isNull();
        assertThatThrownBy(() -> SqlStatementParser.parse("SET background_ddl TO")).isInstanceOf(CompileException.class);
    }

    private static String setValue(String sql) {
        return parse(sql, SqlSetOption.class).getValue().toString();
    }

    @Test
    void wordsPostgresDoesNotReserveAreNames() {
        for (String word : new String[] {"day", "groups", "rows", "position", "start", "member", "at", "result", "language"}) {
            SqlCreateRelation table = parse("CREATE TABLE t (" + word + " int, v int)", SqlCreateRelation.class);
            assertThat(((SqlColumnDeclaration) table.columns().get(0)).name.getSimple()).isEqualTo(word);
            parse("SELECT " + word + ", v AS " + word + "2, 1 AS " + word + " FROM t WHERE " + word + " > 0",
                org.apache.calcite.sql.SqlSelect.class);
        }
        // The same words keep their places in the grammar.
        parse("SELECT position('b' IN 'abc'), INTERVAL '1' DAY, EXTRACT(DAY FROM ts), "
            + "sum(v) OVER (ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t",
            org.apache.calcite.sql.SqlSelect.class);
    }

    @Test
    void anyWordNamesAColumnAfterAsAsInPostgres() {
        org.apache.calcite.sql.SqlSelect query = parse("SELECT 1 AS end, 2 AS USER, a AS from, b AS \"Window\", c AS initial FROM t",
            org.apache.calcite.sql.SqlSelect.class);

        assertThat(query.getSelectList()).extracting(item -> ((SqlIdentifier) ((org.apache.calcite.sql.SqlCall) item).operand(1)).getSimple())
            .containsExactly("end", "user", "from", "Window", "initial");
        assertThat(parse("SELECT a AS MEASURE m FROM t", org.apache.calcite.sql.SqlSelect.class).getSelectList().get(0).toString())
            .contains("MEASURE");
        // Without AS, PostgreSQL takes no reserved word as a name either.
        assertThatThrownBy(() -> SqlStatementParser.parse("SELECT 1 end")).isInstanceOf(CompileException.class);
    }

    @Test
    void postgresRegularExpressionOperators() {
        org.apache.calcite.sql.SqlSelect query = parse("SELECT a ~ 'x', a ~* 'x', a !~ 'x', a !~* 'x', a != b FROM t",
            org.apache.calcite.sql.SqlSelect.class);

        assertThat(query.getSelectList()).extracting(node -> ((org.apache.calcite.sql.SqlCall) node).getOperator())
            .containsExactly(org.apache.calcite.sql.fun.SqlStdOperatorTable.POSIX_REGEX_CASE_SENSITIVE,
                org.apache.calcite.sql.fun.SqlStdOperatorTable.POSIX_REGEX_CASE_INSENSITIVE,
                org.apache.calcite.sql.fun.SqlStdOperatorTable.NEGATED_POSIX_REGEX_CASE_SENSITIVE,
                org.apache.calcite.sql.fun.SqlStdOperatorTable.NEGATED_POSIX_REGEX_CASE_INSENSITIVE,
                org.apache.calcite.sql.fun.SqlStdOperatorTable.NOT_EQUALS);
    }

    @Test
    void explainTakesAViewOrAQuery() {
        assertThat(parse("EXPLAIN CREATE MATERIALIZED VIEW m AS SELECT 1", SqlExplainStatement.class).statement())
            .isInstanceOf(SqlCreateMaterializedView.class);
        assertThat(parse("EXPLAIN SELECT v FROM t", SqlExplainStatement.class).statement().getKind())
            .isEqualTo(org.apache.calcite.sql.SqlKind.SELECT);
    }

    @Test
    void insertFromGenerateSeries() {
        SqlInsert insert = parse("INSERT INTO t SELECT * FROM generate_series(1, 1000000)", SqlInsert.class);

        assertThat(((SqlIdentifier) insert.getTargetTable()).getSimple()).isEqualTo("t");
    }

    @Test
    void ourKeywordsRemainUsableAsNames() {
        SqlCreateRelation table = parse("CREATE TABLE jobs (wait INT, index INT, sink TEXT)", SqlCreateRelation.class);

        assertThat(table.name().getSimple()).isEqualTo("jobs");
        assertThat(table.columns()).hasSize(3);
        assertThat(parse("CREATE MATERIALIZED VIEW per AS SELECT result, language FROM t",
            SqlCreateMaterializedView.class).name().getSimple()).isEqualTo("per");
    }

    @Test
    void datetimeTypeNamesAreColumnNamesAsInPostgres() {
        // Kafka records are full of "timestamp" and "date" fields; PostgreSQL lets them be names unquoted.
        SqlCreateRelation table = parse("CREATE TABLE e (timestamp TIMESTAMPTZ, date DATE, time TIME, partition INT, v INT)",
            SqlCreateRelation.class);
        assertThat(table.columns()).extracting(c -> ((SqlColumnDeclaration) c).name.getSimple())
            .containsExactly("timestamp", "date", "time", "partition", "v");

        org.apache.calcite.sql.SqlSelect query = (org.apache.calcite.sql.SqlSelect) SqlStatementParser.parse(
            "SELECT timestamp, e.date, time AS t, v AS timestamp FROM e WHERE timestamp > TIMESTAMP '2026-01-01' "
                + "AND date = DATE '2026-01-01' GROUP BY date, time, timestamp");
        assertThat(query.getSelectList().get(0)).isInstanceOf(SqlIdentifier.class).hasToString("timestamp");
        assertThat(query.getSelectList().get(1)).hasToString("e.date");
        assertThat(query.getGroup()).hasSize(3);
        assertThat(((org.apache.calcite.sql.SqlOrderBy) SqlStatementParser.parse("SELECT * FROM e ORDER BY timestamp, date"))
            .orderList).hasToString("`timestamp`, `date`");

        org.apache.calcite.sql.SqlSelect windowed = (org.apache.calcite.sql.SqlSelect) SqlStatementParser.parse(
            "SELECT partition, row_number() OVER (PARTITION BY partition ORDER BY v), "
                + "sum(v) OVER w FROM e partition WINDOW w AS (partition PARTITION BY date)");
        assertThat(windowed.getSelectList().get(0)).hasToString("partition");
        assertThat(windowed.getSelectList().get(1).toString()).contains("PARTITION BY `partition`");
        assertThat(windowed.getFrom()).hasToString("`e` AS `partition`");
        assertThat(windowed.getWindowList().get(0).toString()).contains("`partition` PARTITION BY `date`");
    }

    /**
     * PostgreSQL's words that kafka-mv still reserves, because Calcite reads them as a type (int, numeric), an
     * operator or function with its own syntax (between, extract, substring), a clause (by, over, filter, range)
     * or a statement (insert, set, show): quote them. Every other word PostgreSQL does not reserve is a name here.
     */
    private static final java.util.Set<String> STILL_RESERVED = java.util.Set.of(
        "bigint", "bit", "boolean", "char", "character", "dec", "decimal", "double", "float", "int", "integer",
        "interval", "nchar", "numeric", "precision", "real", "smallint", "varchar", "varying",
        "between", "coalesce", "exists", "extract", "grouping", "normalize", "nullif", "overlay", "row",
        "substring", "trim", "values",
        "by", "cube", "current", "escape", "filter", "local", "new", "next", "no", "of", "over", "range",
        "recursive", "rollup", "uescape", "within", "without",
        "alter", "call", "delete", "drop", "explain", "insert", "merge", "reset", "revoke", "set", "show", "skip",
        "truncate", "update");

    @Test
    void everyWordPostgresDoesNotReserveIsANameUnlessListedAsStillReserved() throws java.io.IOException {
        java.util.List<String> words;
        try (var in = KafkaMvGrammarTest.class.getResourceAsStream("/postgres-unreserved-keywords.txt")) {
            words = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).lines()
                .filter(line -> !line.isBlank() && !line.startsWith("#")).toList();
        }
        assertThat(words).hasSizeGreaterThan(300).containsAll(STILL_RESERVED);
        java.util.List<String> refused = new java.util.ArrayList<>();
        java.util.List<String> acceptedThoughListed = new java.util.ArrayList<>();
        for (String word : words) {
            boolean parses = true;
            for (String sql : new String[] {"CREATE TABLE t (" + word + " INT)", "SELECT " + word + " FROM t",
                "SELECT a AS " + word + " FROM t", "SELECT t." + word + " FROM t WHERE " + word + " > 1 GROUP BY " + word}) {
                try {
                    SqlStatementParser.parse(sql);
                } catch (CompileException e) {
                    parses = false;
                    if (!STILL_RESERVED.contains(word)) {
                        refused.add(sql + ": " + e.getMessage());
                    }
                }
            }
            if (parses && STILL_RESERVED.contains(word)) {
                acceptedThoughListed.add(word);
            }
        }
        assertThat(refused).as("names PostgreSQL accepts unquoted").isEmpty();
        assertThat(acceptedThoughListed).as("words that became names: take them off STILL_RESERVED").isEmpty();
        // Not keywords in PostgreSQL at all, but functions Calcite parses on their own.
        for (String word : new String[] {"count", "min", "max", "rank"}) {
            SqlStatementParser.parse("CREATE TABLE t (" + word + " INT)");
            SqlStatementParser.parse("SELECT " + word + ", t." + word + " AS " + word + " FROM t GROUP BY " + word);
        }
        org.apache.calcite.sql.SqlSelect calls = (org.apache.calcite.sql.SqlSelect) SqlStatementParser.parse(
            "SELECT count(*), count(DISTINCT a), min(a), max(a), rank() OVER (ORDER BY a) FROM t");
        assertThat(calls.getSelectList()).hasToString(
            "COUNT(*), COUNT(DISTINCT `a`), MIN(`a`), MAX(`a`), RANK() OVER (ORDER BY `a`)");
        org.apache.calcite.sql.SqlSelect operators = (org.apache.calcite.sql.SqlSelect) SqlStatementParser.parse(
            "SELECT a IS UNKNOWN, unknown IS NOT UNKNOWN FROM t");
        assertThat(operators.getSelectList()).extracting(SqlNode::getKind).containsExactly(
            org.apache.calcite.sql.SqlKind.IS_NULL, org.apache.calcite.sql.SqlKind.IS_NOT_NULL);
    }

    @Test
    void datetimeLiteralsTypesAndTimeZonesStillReadAsBefore() {
        org.apache.calcite.sql.SqlSelect query = (org.apache.calcite.sql.SqlSelect) SqlStatementParser.parse(
            "SELECT TIMESTAMP '2026-01-01 00:00:00', DATE '2026-01-01', TIME '12:00:00', "
                + "TIMESTAMP WITH TIME ZONE '2026-01-01 00:00:00+00', CAST(a AS TIMESTAMP), b::date, c::time FROM t");
        assertThat(query.getSelectList()).extracting(SqlNode::getKind).containsExactly(
            org.apache.calcite.sql.SqlKind.LITERAL, org.apache.calcite.sql.SqlKind.LITERAL,
            org.apache.calcite.sql.SqlKind.LITERAL, org.apache.calcite.sql.SqlKind.LITERAL,
            org.apache.calcite.sql.SqlKind.CAST, org.apache.calcite.sql.SqlKind.CAST, org.apache.calcite.sql.SqlKind.CAST);
        assertThat(((SqlIdentifier) parse("SET TIME ZONE 'UTC'", SqlSetOption.class).name()).getSimple()).isEqualTo("timezone");
        assertThat(parse("SET datestyle = date", SqlSetOption.class).getValue()).isInstanceOf(SqlIdentifier.class);
    }

    @Test
    void aTypoIsReportedWithItsPositionAndWhatWasExpected() {
        assertThatThrownBy(() -> SqlStatementParser.parse("CREATE MATERIALIZED VEIW m AS SELECT 1"))
            .isInstanceOfSatisfying(CompileException.class, e -> {
                assertThat(e.category()).isEqualTo(CompileException.Category.SYNTAX);
                assertThat(e.getMessage()).isEqualTo("syntax error at or near \"VEIW\"");
                assertThat(e.position()).isEqualTo(21);
                assertThat(e.hint()).hasValueSatisfying(hint -> assertThat(hint).contains("VIEW"));
            });
    }

    @Test
    void aStatementCutShortIsASyntaxErrorAtTheEndOfTheInputAsPostgresSaysIt() {
        // PostgreSQL 15: ERROR:  syntax error at end of input, with the caret one past the last character.
        for (String sql : new String[] {"SELECT * FROM", "CREATE TABLE x (a int", "SET application_name TO  "}) {
            assertThatThrownBy(() -> SqlStatementParser.parse(sql)).as(sql)
                .isInstanceOfSatisfying(CompileException.class, e -> {
                    assertThat(e.getMessage()).isEqualTo("syntax error at end of input");
                    assertThat(e.position()).isEqualTo(sql.stripTrailing().length() + 1);
                });
        }
    }

    private static <T> T parse(String sql, Class<T> type) {
        SqlNode node = SqlStatementParser.parse(sql);
        assertThat(node).isInstanceOf(type);
        return type.cast(node);
    }

    @Test
    void aReservedWordGivenAsANameIsExplained() {
        assertThatThrownBy(() -> SqlStatementParser.parse("SELECT substring(c FROM 1 FOR 1) FROM t AS initial"))
            .isInstanceOfSatisfying(CompileException.class, e -> {
                assertThat(e.getMessage()).isEqualTo("syntax error at or near \"initial\"");
                assertThat(e.hint()).hasValueSatisfying(hint -> assertThat(hint).startsWith("\"initial\" is a reserved word; to use it as a name, write it in double quotes"));
            });
        assertThatThrownBy(() -> SqlStatementParser.parse("CREATE TABLE t (id INT, current INT)"))
            .isInstanceOfSatisfying(CompileException.class, e -> {
                assertThat(e.getMessage()).isEqualTo("syntax error at or near \"current\"");
                assertThat(e.position()).isEqualTo(25);
                assertThat(e.hint()).hasValueSatisfying(hint -> assertThat(hint).startsWith("\"current\" is a reserved word"));
            });
        assertThatThrownBy(() -> SqlStatementParser.parse("SELECT FROM t"))
            .isInstanceOfSatisfying(CompileException.class,
                e -> assertThat(e.hint().orElse("")).doesNotContain("reserved word"));
    }
}

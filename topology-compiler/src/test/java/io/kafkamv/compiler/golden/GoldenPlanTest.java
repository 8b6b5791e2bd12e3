package io.kafkamv.compiler.golden;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Stream;

import io.kafkamv.compiler.SqlCompiler;
import io.kafkamv.compiler.catalog.Relation;
import io.kafkamv.compiler.parser.SqlCreateIndex;
import io.kafkamv.compiler.parser.SqlCreateMaterializedView;
import io.kafkamv.compiler.parser.SqlCreateSink;
import io.kafkamv.compiler.parser.SqlStatementParser;
import io.kafkamv.compiler.plan.PhysicalPlan;
import io.kafkamv.compiler.plan.PlanJson;
import io.kafkamv.compiler.topology.TopologyFactory;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.RowSchema;
import io.kafkamv.connectors.schema.SqlType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each {@code golden/views/<case>.sql} (a view, sink or index) compiles to the plan in {@code <case>.plan.json} and the
 * topology in {@code <case>.topology.txt}. Those files are written by this test, never by hand:
 * run {@code mvn -pl topology-compiler test -Dtest=GoldenPlanTest -Dgolden.update=true} and review the diff.
 */
class GoldenPlanTest {

    private static final Path GOLDEN = Paths.get("src/test/resources/golden/views");
    private static final boolean UPDATE = Boolean.getBoolean("golden.update");

    private static final List<Relation> CATALOG = List.of(
        new Relation("t", new RowSchema(List.of(Column.of("v1", SqlType.INTEGER)), List.of()),
            List.of(Relation.ROW_ID), "kmv-table-t-1001"),
        new Relation("orders", new RowSchema(List.of(new Column("id", SqlType.BIGINT, false),
            Column.of("customer", SqlType.VARCHAR), Column.of("amount", SqlType.INTEGER)), List.of("id")),
            List.of(new Column("id", SqlType.BIGINT, false)), "kmv-table-orders-1002"),
        new Relation("customers", new RowSchema(List.of(new Column("name", SqlType.VARCHAR, false),
            Column.of("tier", SqlType.INTEGER)), List.of("name")),
            List.of(new Column("name", SqlType.VARCHAR, false)), "kmv-table-customers-1005"),
        new Relation("m", new RowSchema(List.of(Column.of("v1", SqlType.INTEGER)), List.of()),
            List.of(Relation.ROW_ID), "kmv-view-m-1003"),
        new Relation("clicks", new RowSchema(List.of(Column.of("page", SqlType.VARCHAR), Column.of("ms", SqlType.INTEGER),
            Column.of("ts", SqlType.TIMESTAMP)),
            List.of()), Relation.RECORD_POSITION, "web-clicks", "json", "kmv-source-clicks-dlq-1004"),
        new Relation("users", new RowSchema(List.of(new Column("id", SqlType.BIGINT, false),
            Column.of("name", SqlType.VARCHAR)), List.of("id")), List.of(new Column("id", SqlType.BIGINT, false)),
            "users", "json", "kmv-source-users-dlq-1006", java.util.Map.of("key.is_primary_key", "true")));

    static Stream<String> cases() throws IOException {
        try (Stream<Path> files = Files.list(GOLDEN)) {
            return files.map(path -> path.getFileName().toString())
                .filter(name -> name.endsWith(".sql"))
                .map(name -> name.substring(0, name.length() - 4))
                .sorted()
                .toList()
                .stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void compilesToTheGoldenPlanAndTopology(String name) throws IOException {
        String sql = Files.readString(GOLDEN.resolve(name + ".sql"), StandardCharsets.UTF_8).strip();
        SqlCompiler compiler = new SqlCompiler(() -> CATALOG, 3);
        var statement = SqlStatementParser.parse(sql);
        PhysicalPlan compiled = statement instanceof SqlCreateSink sink ? compiler.compileSink(sink, sql, 2000).plan()
            : statement instanceof SqlCreateIndex index ? compiler.compileIndex(index, sql, 2000).plan()
            : compiler.compileView((SqlCreateMaterializedView) statement, sql, 2000).plan();

        String plan = PlanJson.toJson(compiled) + "\n";
        String topology = TopologyFactory.build(PlanJson.fromJson(plan)).describe().toString();

        assertThat(topology).as("generated names in the topology").doesNotContain("KSTREAM-", "KTABLE-");
        check(name + ".plan.json", plan);
        check(name + ".topology.txt", topology);
    }

    private static void check(String file, String actual) throws IOException {
        Path path = GOLDEN.resolve(file);
        if (UPDATE) {
            Files.writeString(path, actual, StandardCharsets.UTF_8);
            return;
        }
        assertThat(path).as("%s is missing; generate it with -Dgolden.update=true", file).exists();
        assertThat(actual).as("%s differs; if the change is intended, regenerate with -Dgolden.update=true "
            + "and review the diff", file).isEqualTo(Files.readString(path, StandardCharsets.UTF_8));
    }
}

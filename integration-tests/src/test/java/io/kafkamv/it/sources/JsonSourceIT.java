package io.kafkamv.it.sources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import io.kafkamv.it.support.KafkaAdmin;
import io.kafkamv.it.support.Psql;
import io.kafkamv.it.support.ServiceProcess;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Topics written by someone else (plain JSON, Debezium change events) read as sources: views over them, poison records aside. */
class JsonSourceIT {

    @TempDir
    Path workDir;

    @Test
    void viewsOverAJsonTopicSkipPoisonRecordsIntoTheDeadLetterTopic() throws Exception {
        try (ServiceProcess service = ServiceProcess.start(workDir.resolve("data"))) {
            String kafka = service.bootstrapServers();
            try (Admin admin = Admin.create(properties(kafka))) {
                admin.createTopics(List.of(new NewTopic("web-clicks", 3, (short) 1))).all().get();
            }
            produce(kafka, "{\"page\": \"/home\", \"ms\": 120}", "{\"page\": \"/home\", \"ms\": 80}",
                "not json at all", "{\"page\": \"/docs\", \"ms\": \"fast\"}", "{\"page\": \"/docs\", \"ms\": 300}");
            Psql psql = new Psql(service.pgPort());

            Psql.Result created = psql.session(List.of(
                "CREATE SOURCE clicks (page TEXT, ms INT) WITH (connector = 'kafka', topic = 'web-clicks', format = 'json')",
                "CREATE MATERIALIZED VIEW per_page AS SELECT page, count(*) AS hits, max(ms) AS worst FROM clicks GROUP BY page",
                "SELECT page, hits, worst FROM per_page ORDER BY page",
                "SHOW SOURCES"), "-A", "-t");

            assertThat(created.exitCode()).as(created.stderr()).isZero();
            assertThat(created.stdout()).isEqualTo("CREATE SOURCE\nCREATE MATERIALIZED VIEW\n/docs|1|300\n/home|2|120\nclicks|web-clicks|json|2|\n");
            assertThat(deadLetters(kafka)).containsExactlyInAnyOrder(
                "not json at all|not JSON: Unrecognized token 'not': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')",
                "{\"page\": \"/docs\", \"ms\": \"fast\"}|field \"ms\" does not fit type integer: \"fast\"");
            // The dead letters are the user's own records: a source may read them, with the reason as a column.
            String letters = KafkaAdmin.topics(kafka).stream()
                .filter(name -> name.startsWith("kmv-source-clicks-dlq-")).findFirst().orElseThrow();
            Psql.Result asSql = psql.session(List.of("CREATE SOURCE click_letters (line TEXT) INCLUDE header 'kmv.error' AS reason "
                + "WITH (connector = 'kafka', topic = '" + letters + "', format = 'string')",
                "SELECT line, reason FROM click_letters ORDER BY line", "DROP SOURCE click_letters"), "-A", "-t");
            assertThat(asSql.exitCode()).as(asSql.stderr()).isZero();
            assertThat(asSql.stdout()).contains("not json at all|not JSON: Unrecognized token 'not'")
                .contains("{\"page\": \"/docs\", \"ms\": \"fast\"}|field \"ms\" does not fit type integer: \"fast\"");

            produce(kafka, "{\"page\": \"/home\", \"ms\": 500}");
            await().atMost(Duration.ofSeconds(30))
                .until(() -> psql.value("SELECT worst FROM per_page WHERE page = '/home'"), "500"::equals);
            assertThat(psql.value("SELECT count(*) FROM clicks")).isEqualTo("4");
            // A second view over the source sets the same bad records aside again; they count once.
            assertThat(psql.run("CREATE MATERIALIZED VIEW pages AS SELECT DISTINCT page FROM clicks").exitCode()).isZero();
            java.net.http.HttpResponse<String> sources = java.net.http.HttpClient.newHttpClient().send(
                java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://localhost:" + service.httpPort()
                    + "/v1/sources")).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
            assertThat(new com.fasterxml.jackson.databind.ObjectMapper().readTree(sources.body())
                .at("/sources/0/deadLetters").asLong()).as(sources.body()).isEqualTo(2);
            assertThat(psql.run("CREATE SOURCE nowhere (a INT) WITH (connector = 'kafka', topic = 'missing')").stderr())
                .contains("topic \"missing\" does not exist");
        }
    }

    @Test
    void aRecordsTimestampKeyPlaceAndHeadersAreColumnsWhenTheSourceIncludesThem() throws Exception {
        try (ServiceProcess service = ServiceProcess.start(workDir.resolve("data"))) {
            String kafka = service.bootstrapServers();
            try (Admin admin = Admin.create(properties(kafka))) {
                admin.createTopics(List.of(new NewTopic("deliveries", 1, (short) 1))).all().get();
            }
            long minute = java.time.Instant.parse("2026-11-29T10:00:00Z").toEpochMilli();
            Properties producerProperties = properties(kafka);
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerProperties, new StringSerializer(),
                new StringSerializer())) {
                long[] at = {minute + 5_000, minute + 20_000, minute + 70_000};
                for (int i = 0; i < at.length; i++) {
                    ProducerRecord<String, String> record = new ProducerRecord<>("deliveries", 0, at[i], "k" + i,
                        "{\"parcel\": \"p" + i + "\"}");
                    if (i != 1) {
                        record.headers().add("trace", ("t-" + i).getBytes(StandardCharsets.UTF_8));
                    }
                    producer.send(record).get();
                }
            }
            Psql psql = new Psql(service.pgPort());

            Psql.Result created = psql.session(List.of(
                "CREATE SOURCE deliveries (parcel TEXT) INCLUDE timestamp AS delivered_at INCLUDE header 'trace' AS trace "
                    + "INCLUDE partition INCLUDE offset AS off INCLUDE key AS k "
                    + "WITH (connector = 'kafka', topic = 'deliveries', format = 'json')",
                "CREATE MATERIALIZED VIEW per_minute AS SELECT window_start, count(*) AS n "
                    + "FROM TUMBLE(deliveries, delivered_at, INTERVAL '1' MINUTE) GROUP BY window_start",
                "SELECT extract(epoch FROM window_start) * 1000 - " + minute + ", n FROM per_minute ORDER BY window_start",
                "SELECT parcel, coalesce(trace, '-'), _kafka_partition, off, k FROM deliveries ORDER BY off"), "-A", "-t");

            assertThat(created.exitCode()).as(created.stderr()).isZero();
            // EXTRACT is a numeric with six decimals, as in PostgreSQL.
            assertThat(created.stdout()).isEqualTo("CREATE SOURCE\nCREATE MATERIALIZED VIEW\n0.000000|2\n60000.000000|1\n"
                + "p0|t-0|0|0|\\x6b30\np1|-|0|1|\\x6b31\np2|t-2|0|2|\\x6b32\n");
            assertThat(psql.run("CREATE SOURCE odd (a INT) INCLUDE nonsense WITH (connector = 'kafka', topic = 'deliveries')")
                .stderr()).contains("a source cannot INCLUDE nonsense").contains("INCLUDE timestamp, partition, offset");
            assertThat(psql.run("CREATE SOURCE twice (a INT) INCLUDE offset AS a WITH (connector = 'kafka', "
                + "topic = 'deliveries')").stderr()).contains("column \"a\" specified more than once");
        }
    }

    @Test
    void aTopicKeyedByPlainStringsDeletesRowsByItsTombstones() throws Exception {
        try (ServiceProcess service = ServiceProcess.start(workDir.resolve("data"))) {
            String kafka = service.bootstrapServers();
            try (Admin admin = Admin.create(properties(kafka))) {
                admin.createTopics(List.of(new NewTopic("stock", 2, (short) 1))).all().get();
            }
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(properties(kafka), new StringSerializer(),
                new StringSerializer())) {
                for (String[] record : new String[][] {{"1", "{\"sku\": 1, \"left\": 5}"}, {"2", "{\"sku\": 2, \"left\": 0}"},
                    {"3", "{\"sku\": 3, \"left\": 9}"}, {"2", null}, {"1", "{\"sku\": 1, \"left\": 4}"}}) {
                    producer.send(new ProducerRecord<>("stock", record[0], record[1])).get();
                }
            }
            Psql psql = new Psql(service.pgPort());

            Psql.Result created = psql.session(List.of(
                "CREATE SOURCE stock (sku INT PRIMARY KEY, \"left\" INT) WITH (connector = 'kafka', topic = 'stock', "
                    + "format = 'json', key.format = 'string')",
                "CREATE MATERIALIZED VIEW in_stock AS SELECT count(*) AS skus, sum(\"left\") AS units FROM stock",
                "SELECT skus, units FROM in_stock"), "-A", "-t");

            assertThat(created.exitCode()).as(created.stderr()).isZero();
            assertThat(created.stdout()).isEqualTo("CREATE SOURCE\nCREATE MATERIALIZED VIEW\n2|13\n");
            assertThat(psql.run("CREATE SOURCE odd (a INT PRIMARY KEY) WITH (connector = 'kafka', topic = 'stock', "
                + "key.format = 'xml')").stderr()).contains("key.format 'xml' is not supported");

            // The same topic, its keys promised to be the rows' keys: the rows stay in their partitions, and a record
            // keyed otherwise is a dead letter instead of a row.
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(properties(kafka), new StringSerializer(),
                new StringSerializer())) {
                producer.send(new ProducerRecord<>("stock", "9", "{\"sku\": 8, \"left\": 1}")).get();
            }
            List<String> repartitions = repartitionTopics(kafka);
            Psql.Result keyed = psql.session(List.of(
                "CREATE SOURCE stock_by_key (sku INT PRIMARY KEY, \"left\" INT) WITH (connector = 'kafka', topic = 'stock', "
                    + "format = 'json', key.format = 'string', key.is_primary_key = 'true')",
                "CREATE MATERIALIZED VIEW stock_levels AS SELECT sku, \"left\" FROM stock_by_key",
                "SELECT count(*), sum(\"left\") FROM stock_levels", "SELECT \"left\" FROM stock_levels WHERE sku = 3"),
                "-A", "-t");
            assertThat(keyed.exitCode()).as(keyed.stderr()).isZero();
            assertThat(keyed.stdout()).isEqualTo("CREATE SOURCE\nCREATE MATERIALIZED VIEW\n2|13\n9\n");
            assertThat(repartitionTopics(kafka)).as("the view over the keyed source repartitions nothing")
                .isEqualTo(repartitions);
            await().atMost(Duration.ofSeconds(30))
                .until(() -> psql.run("SHOW SOURCES", "-A", "-t").stdout().contains("stock_by_key|stock|json|1|\n"));
            await().atMost(Duration.ofSeconds(30)).until(() -> psql.value("SELECT skus || ' ' || units FROM in_stock"),
                "3 14"::equals);
            assertThat(psql.run("CREATE SOURCE unkeyed (a INT) WITH (connector = 'kafka', topic = 'stock', "
                + "key.is_primary_key = 'true')", "-v", "VERBOSITY=verbose").stderr())
                .contains("ERROR:  22023: key.is_primary_key needs a primary key");
        }
    }

    private static List<String> repartitionTopics(String kafka) throws Exception {
        return KafkaAdmin.topics(kafka).stream().filter(topic -> topic.endsWith("-repartition")).sorted().toList();
    }

    @Test
    void aDebeziumTopicFeedsASourceWithUpdatesAndDeletes() throws Exception {
        try (ServiceProcess service = ServiceProcess.start(workDir.resolve("data"))) {
            String kafka = service.bootstrapServers();
            try (Admin admin = Admin.create(properties(kafka))) {
                admin.createTopics(List.of(new NewTopic("pg.public.accounts", 1, (short) 1))).all().get();
            }
            produceTo(kafka, "pg.public.accounts",
                change("c", null, "{\"id\": 1, \"owner\": \"ann\", \"balance\": 10.50}"),
                change("c", null, "{\"id\": 2, \"owner\": \"bob\", \"balance\": 3}"),
                change("r", null, "{\"id\": 3, \"owner\": \"ann\", \"balance\": 1}"));
            Psql psql = new Psql(service.pgPort());

            Psql.Result created = psql.session(List.of(
                "CREATE SOURCE accounts (id INT PRIMARY KEY, owner TEXT, balance DECIMAL) "
                    + "WITH (connector = 'kafka', topic = 'pg.public.accounts', format = 'debezium-json')",
                "CREATE MATERIALIZED VIEW per_owner AS SELECT owner, count(*) AS n, sum(balance) AS total "
                    + "FROM accounts GROUP BY owner",
                "SELECT owner, n, total FROM per_owner ORDER BY owner"), "-A", "-t");
            assertThat(created.exitCode()).as(created.stderr()).isZero();
            assertThat(created.stdout()).isEqualTo("CREATE SOURCE\nCREATE MATERIALIZED VIEW\nann|2|11.50\nbob|1|3\n");

            produceTo(kafka, "pg.public.accounts",
                change("u", "{\"id\": 2, \"owner\": \"bob\", \"balance\": 3}", "{\"id\": 2, \"owner\": \"ann\", \"balance\": 4}"),
                change("d", "{\"id\": 1, \"owner\": \"ann\", \"balance\": 10.50}", null));
            await().atMost(Duration.ofSeconds(30)).until(
                () -> psql.run("SELECT owner, n, total FROM per_owner ORDER BY owner", "-A", "-t").stdout(),
                "ann|2|5.00\n"::equals);
            assertThat(psql.run("CREATE SOURCE nokey (id INT) WITH (connector = 'kafka', topic = 'pg.public.accounts', "
                + "format = 'debezium-json')").stderr()).contains("a debezium-json source needs a primary key");
        }
    }

    /**
     * A view over a topic someone else partitioned (here each id in partition id mod 4, not where the hash of its key
     * as kafka-mv encodes it would put it) answers a SELECT by key from its stores, row or none, without reading the
     * whole view.
     */
    @Test
    void aViewOfATopicPartitionedElsewhereAnswersLookupsByKeyFromItsStores() throws Exception {
        try (ServiceProcess service = ServiceProcess.start(workDir.resolve("data"))) {
            String kafka = service.bootstrapServers();
            try (Admin admin = Admin.create(properties(kafka))) {
                admin.createTopics(List.of(new NewTopic("pg.public.users", 4, (short) 1))).all().get();
            }
            Properties properties = properties(kafka);
            properties.put(ProducerConfig.ACKS_CONFIG, "all");
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(properties, new StringSerializer(),
                new StringSerializer())) {
                for (int id = 1; id <= 12; id++) {
                    producer.send(new ProducerRecord<>("pg.public.users", id % 4, "{\"id\": " + id + "}",
                        change("c", null, "{\"id\": " + id + ", \"name\": \"user" + id + "\"}"))).get();
                }
            }
            Psql psql = new Psql(service.pgPort());
            Psql.Result created = psql.session(List.of(
                "CREATE SOURCE users (id INT PRIMARY KEY, name TEXT) "
                    + "WITH (connector = 'kafka', topic = 'pg.public.users', format = 'debezium-json')",
                "CREATE MATERIALIZED VIEW user_names AS SELECT id, name FROM users"));
            assertThat(created.exitCode()).as(created.stderr()).isZero();
            List<String> lookups = java.util.stream.IntStream.rangeClosed(1, 13)
                .mapToObj(id -> "SELECT name FROM user_names WHERE id = " + id).toList();
            String names = java.util.stream.IntStream.rangeClosed(1, 12).mapToObj(id -> "user" + id + "\n")
                .collect(java.util.stream.Collectors.joining());

            // Right after its creation a view's partitions may still move once (a rebalance), when a lookup takes the
            // general way: the answers are the same, which the counts tell apart.
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                java.util.Map<String, Double> before = keyLookups(service);
                Psql.Result looked = psql.session(lookups, "-A", "-t");
                assertThat(looked.exitCode()).as(looked.stderr()).isZero();
                assertThat(looked.stdout()).isEqualTo(names);
                java.util.Map<String, Double> after = keyLookups(service);
                assertThat(java.util.Map.of("row", after.get("row") - before.get("row"),
                    "none", after.get("none") - before.get("none"),
                    "elsewhere", after.get("elsewhere") - before.get("elsewhere")))
                    .isEqualTo(java.util.Map.of("row", 12.0, "none", 1.0, "elsewhere", 0.0));
            });
        }
    }

    /** The service's counts of lookups by key, by answer. */
    private static java.util.Map<String, Double> keyLookups(ServiceProcess service) throws Exception {
        String metrics = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create("http://localhost:" + service.httpPort() + "/metrics")).build(),
            java.net.http.HttpResponse.BodyHandlers.ofString()).body();
        java.util.Map<String, Double> counts = new java.util.HashMap<>(java.util.Map.of("row", 0.0, "none", 0.0,
            "elsewhere", 0.0));
        java.util.regex.Matcher sample = java.util.regex.Pattern
            .compile("^kafkamv_view_key_lookups_total\\{[^}]*answer=\"(\\w+)\"[^}]*\\} (\\S+)$", java.util.regex.Pattern.MULTILINE)
            .matcher(metrics);
        while (sample.find()) {
            counts.put(sample.group(1), Double.parseDouble(sample.group(2)));
        }
        return counts;
    }

    private static String change(String op, String before, String after) {
        return "{\"schema\": null, \"payload\": {\"before\": " + before + ", \"after\": " + after + ", \"op\": \"" + op
            + "\", \"ts_ms\": 1764410000000, \"source\": {\"connector\": \"postgresql\"}}}";
    }

    private static List<String> deadLetters(String kafka) throws Exception {
        Properties properties = properties(kafka);
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<String> letters = new ArrayList<>();
        try (Admin admin = Admin.create(properties(kafka));
             KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(properties, new ByteArrayDeserializer(),
                 new ByteArrayDeserializer())) {
            String topic = admin.listTopics().names().get().stream()
                .filter(name -> name.startsWith("kmv-source-clicks-dlq-")).findFirst().orElseThrow();
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                .map(info -> new TopicPartition(topic, info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    letters.add(new String(record.value(), StandardCharsets.UTF_8) + "|"
                        + new String(record.headers().lastHeader("kmv.error").value(), StandardCharsets.UTF_8));
                }
                return letters.size() >= 2;
            });
        }
        return letters;
    }

    private static void produce(String kafka, String... values) throws Exception {
        produceTo(kafka, "web-clicks", values);
    }

    private static void produceTo(String kafka, String topic, String... values) throws Exception {
        Properties properties = properties(kafka);
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(properties, new StringSerializer(),
            new StringSerializer())) {
            for (String value : values) {
                producer.send(new ProducerRecord<>(topic, value)).get();
            }
        }
    }

    private static Properties properties(String kafka) {
        Properties properties = new Properties();
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka);
        return properties;
    }
}

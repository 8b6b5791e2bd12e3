package io.kafkamv.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.kafkamv.bench.BackfillQuery;
import io.kafkamv.bench.BrokerSetup;
import io.kafkamv.bench.measure.Backfill;
import io.kafkamv.bench.measure.ViewCreation;
import java.util.List;
import org.junit.jupiter.api.Test;

class PreviousReportTest {

    private static final String ONE_TABLE = """
        ## Backfill: CREATE MATERIALIZED VIEW to queryable

        | query | rows | kafka-mv s | hand-written Kafka Streams s | raw read s | kafka-mv / hand-written | kafka-mv / raw read |
        |---|---:|---:|---:|---:|---:|---:|
        | GROUP BY, 1,000 groups | 1,000,000 | 6.66 | 10.51 | 0.19 | 1.58× | 0.03× |

        ## Many views on one instance

        | views | rows each | seconds for all | rows/s per view | heap used MiB | live threads |
        |---:|---:|---:|---:|---:|---:|
        | 10 | 100,000 | 8.2 | 12,223 | 249 | 137 |
        """;

    @Test
    void aReportOfOneTableStandsForBothSetups() {
        PreviousReport previous = PreviousReport.parse(ONE_TABLE);

        assertThat(previous.of(BrokerSetup.EXTERNAL, BackfillQuery.GROUP_BY_1K, 1_000_000))
            .contains(new PreviousReport.Ratios(1.58, 0.03));
        assertThat(previous.of(BrokerSetup.EMBEDDED, BackfillQuery.GROUP_BY_1K, 1_000_000)).isPresent();
        assertThat(previous.of(BrokerSetup.EMBEDDED, BackfillQuery.GROUP_BY_1K, 10_000_000)).isEmpty();
    }

    @Test
    void eachSetupIsComparedWithItsOwnTableAndTheChangeIsPrinted() {
        String twoTables = "## Backfill: CREATE MATERIALIZED VIEW to queryable\n\n### " + BrokerSetup.EMBEDDED.title() + "\n\n"
            + "| GROUP BY, 1,000 groups | 1,000,000 | 6.66 | 10.51 | 0.19 | 2.00× | 0.03× |\n\n### "
            + BrokerSetup.EXTERNAL.title() + "\n\n| GROUP BY, 1,000 groups | 1,000,000 | 6.66 | 10.51 | 0.19 | 1.00× | 0.03× |\n";
        PreviousReport previous = PreviousReport.parse(twoTables);
        Backfill.Result external = new Backfill.Result(BrokerSetup.EXTERNAL, BackfillQuery.GROUP_BY_1K, 1_000_000,
            new ViewCreation("v", -1, 5000, 5.0, List.of()), 6.0, 0.15);

        assertThat(previous.changes(List.of(external))).containsExactly(
            "GROUP BY, 1,000 groups, 1,000,000 rows, external broker: 1.20× hand-written, 0.03× raw read "
                + "(was 1.00× +20%, 0.03× +0%)");
    }
}

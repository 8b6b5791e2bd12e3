package io.kafkamv.bench.report;

import io.kafkamv.bench.BackfillQuery;
import io.kafkamv.bench.BrokerSetup;
import io.kafkamv.bench.measure.Backfill;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The backfill ratios of the report a run replaces, so that a quick run says what moved: a change to a hot path
 * is seen against the last committed numbers, not against memory. Reports written before the two broker setups
 * have one table, whose rows stand for either setup.
 */
public final class PreviousReport {

    /** The two ratios of one backfill row. */
    public record Ratios(double toHandWritten, double toRawRead) {
    }

    private final Map<String, Ratios> rows;

    private PreviousReport(Map<String, Ratios> rows) {
        this.rows = rows;
    }

    public static PreviousReport parse(String markdown) {
        Map<String, Ratios> rows = new HashMap<>();
        String setup = "";
        for (String line : markdown.split("\n")) {
            if (line.startsWith("## ") && !line.startsWith("## Backfill")) {
                setup = "";
            } else if (line.startsWith("### ")) {
                setup = line.substring(4).trim();
            }
            String[] cells = line.split("\\|");
            if (cells.length == 8 && cells[6].trim().endsWith("×")) {
                String title = cells[1].trim();
                String count = cells[2].trim().replace(",", "");
                try {
                    rows.put(key(setup, title, Long.parseLong(count)), new Ratios(ratio(cells[6]), ratio(cells[7])));
                } catch (NumberFormatException notARow) {
                    // A header or a line of another table.
                }
            }
        }
        return new PreviousReport(rows);
    }

    /** The ratios the previous report has for this result's query, size and setup (or its one table's). */
    public Optional<Ratios> of(BrokerSetup setup, BackfillQuery query, long rowCount) {
        Ratios ratios = rows.get(key(setup.title(), query.title(), rowCount));
        return Optional.ofNullable(ratios != null ? ratios : rows.get(key("", query.title(), rowCount)));
    }

    /** One line per result: its ratios, and how they moved since the previous report. */
    public List<String> changes(List<Backfill.Result> results) {
        List<String> lines = new ArrayList<>();
        for (Backfill.Result result : results) {
            String now = String.format(Locale.ROOT, "%s, %,d rows, %s broker: %.2f× hand-written, %.2f× raw read",
                result.query().title(), result.rows(), result.setup().name().toLowerCase(Locale.ROOT),
                result.ratioToHandWritten(), result.ratioToRawRead());
            lines.add(of(result.setup(), result.query(), result.rows())
                .map(before -> now + String.format(Locale.ROOT, " (was %.2f× %s, %.2f× %s)", before.toHandWritten(),
                    change(result.ratioToHandWritten(), before.toHandWritten()), before.toRawRead(),
                    change(result.ratioToRawRead(), before.toRawRead())))
                .orElse(now + " (not in the previous report)"));
        }
        return lines;
    }

    private static String change(double now, double before) {
        return before == 0 ? "" : String.format(Locale.ROOT, "%+.0f%%", (now / before - 1) * 100);
    }

    private static String key(String setup, String title, long rowCount) {
        return setup + "|" + title + "|" + rowCount;
    }

    private static double ratio(String cell) {
        return Double.parseDouble(cell.trim().replace("×", ""));
    }
}

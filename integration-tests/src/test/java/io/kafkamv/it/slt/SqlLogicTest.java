package io.kafkamv.it.slt;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A sqllogictest file, in the dialect of sqllogictest-rs (which RisingWave's tests use): records separated by blank
 * lines, each {@code statement ok}, {@code statement error [message]}, {@code query <types> [rowsort|valuesort]}
 * with its expected rows after {@code ----} (one row per line, values separated by a space, {@code NULL} for null
 * and {@code (empty)} for the empty string), or {@code query error [message]}. A record may be preceded by
 * {@code onlyif <engine>} or {@code skipif <engine>}; the engines are {@code kafka-mv} and {@code postgres}.
 */
record SqlLogicTest(Path file, List<SqlLogicTest.Record> records) {

    enum Kind { STATEMENT_OK, STATEMENT_ERROR, QUERY, QUERY_ERROR }

    /** One record; {@code line} is where it starts in its file, 1-based. */
    record Record(int line, Kind kind, String sql, String sort, String error, List<String> expected,
                  List<String> onlyIf, List<String> skipIf) {
        boolean runsOn(String engine) {
            return !skipIf.contains(engine) && (onlyIf.isEmpty() || onlyIf.contains(engine));
        }
    }

    static SqlLogicTest read(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        List<Record> records = new ArrayList<>();
        int i = 0;
        while (i < lines.size()) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                i++;
                continue;
            }
            int start = i + 1;
            List<String> onlyIf = new ArrayList<>();
            List<String> skipIf = new ArrayList<>();
            while (line.startsWith("onlyif ") || line.startsWith("skipif ")) {
                (line.startsWith("onlyif ") ? onlyIf : skipIf).add(line.substring(7).strip());
                line = lines.get(++i).strip();
            }
            String[] header = line.split("\\s+", 3);
            i++;
            List<String> sql = new ArrayList<>();
            while (i < lines.size() && !lines.get(i).isBlank() && !lines.get(i).strip().equals("----")) {
                sql.add(lines.get(i++));
            }
            List<String> expected = new ArrayList<>();
            if (i < lines.size() && lines.get(i).strip().equals("----")) {
                i++;
                while (i < lines.size() && !lines.get(i).isBlank()) {
                    expected.add(lines.get(i++).strip());
                }
            }
            String text = String.join("\n", sql);
            String rest = header.length > 2 ? header[2] : null;
            Record record = switch (header[0].toLowerCase(Locale.ROOT) + " " + (header.length > 1 ? header[1] : "")) {
                case "statement ok" -> new Record(start, Kind.STATEMENT_OK, text, null, null, expected, onlyIf, skipIf);
                case "statement error" -> new Record(start, Kind.STATEMENT_ERROR, text, null, rest, expected, onlyIf, skipIf);
                case "query error" -> new Record(start, Kind.QUERY_ERROR, text, null, rest, expected, onlyIf, skipIf);
                default -> {
                    if (!header[0].equalsIgnoreCase("query") || header.length < 2) {
                        throw new IllegalArgumentException(file + ":" + start + ": not a record: " + line);
                    }
                    yield new Record(start, Kind.QUERY, text, rest == null ? "nosort" : rest.strip(), null, expected,
                        onlyIf, skipIf);
                }
            };
            records.add(record);
        }
        return new SqlLogicTest(file, records);
    }
}

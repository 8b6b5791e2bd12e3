package io.kafkamv.compiler.parser;

import java.util.Map;

import org.apache.calcite.sql.SqlWriter;

/** Writes {@code WITH (key = 'value', ...)} back as SQL. */
final class SqlOptions {

    private SqlOptions() {
    }

    static void unparse(SqlWriter writer, Map<String, String> options) {
        if (options.isEmpty()) {
            return;
        }
        writer.keyword("WITH");
        SqlWriter.Frame frame = writer.startList("(", ")");
        options.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(option -> {
            writer.sep(",");
            writer.print(option.getKey() + " = '" + option.getValue().replace("'", "''") + "'");
            writer.setNeedWhitespace(true);
        });
        writer.endList(frame);
    }
}

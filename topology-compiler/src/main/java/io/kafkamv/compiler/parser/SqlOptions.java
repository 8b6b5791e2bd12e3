package io.kafkamv.compiler.parser;

import java.util.Map;

import org.apache.calcite.sql.SqlWriter;

/**
 * Writes {@code WITH (key = 'value', ...)} back as SQL, as SHOW JOBS and the catalog show it: a
 * secret (a password, say) is written as {@code '***'}, so that it is not shown to every session.
 */
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
            String value = Redaction.isSecret(option.getKey()) ? Redaction.MASK : Redaction.value(option.getValue());
            writer.print(option.getKey() + " = '" + value.replace("'", "''") + "'");
            writer.setNeedWhitespace(true);
        });
        writer.endList(frame);
    }
}

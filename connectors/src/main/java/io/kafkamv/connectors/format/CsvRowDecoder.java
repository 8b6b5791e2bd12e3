package io.kafkamv.connectors.format;

import java.io.IOException;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import io.kafkamv.connectors.schema.Column;

/**
 * Reads a record holding one CSV line (RFC 4180 quoting, comma by default) into a row: fields in the
 * order of the columns, each read as {@link JsonRowDecoder} reads text; an empty field is NULL. A line
 * with a different number of fields is malformed.
 */
public final class CsvRowDecoder {

    private static final CsvMapper CSV = CsvMapper.builder().enable(CsvParser.Feature.WRAP_AS_ARRAY).build();

    private final List<Column> columns;
    private final JsonRowDecoder fields;
    private final char separator;

    public CsvRowDecoder(List<Column> columns, char separator) {
        this.columns = List.copyOf(columns);
        this.fields = new JsonRowDecoder(columns);
        this.separator = separator;
    }

    public Object[] decode(byte[] bytes) {
        String[] values;
        try (MappingIterator<String[]> lines = CSV.readerFor(String[].class)
            .with(CSV.schema().withColumnSeparator(separator)).readValues(bytes)) {
            if (!lines.hasNext()) {
                throw new MalformedRecordException("an empty CSV record");
            }
            values = lines.next();
        } catch (IOException | RuntimeException e) {
            if (e instanceof MalformedRecordException malformed) {
                throw malformed;
            }
            throw new MalformedRecordException("not CSV: " + e.getMessage());
        }
        if (values.length != columns.size()) {
            throw new MalformedRecordException("a CSV line of " + values.length + " fields for " + columns.size()
                + " columns");
        }
        ObjectNode row = JsonNodeFactory.instance.objectNode();
        for (int i = 0; i < values.length; i++) {
            JsonNode value = values[i].isEmpty() ? JsonNodeFactory.instance.nullNode()
                : JsonNodeFactory.instance.textNode(values[i]);
            row.set(columns.get(i).name(), value);
        }
        return fields.decode(row);
    }
}

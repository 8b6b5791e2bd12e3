package io.kafkamv.connectors.format;

import java.util.ArrayList;
import java.util.List;

import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.SqlType;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;

/**
 * Avro types as SQL types: a source over an Avro topic can take its columns from the registry.
 * Logical types map to their SQL meaning (decimal, date, time, timestamps, uuid); records, arrays
 * and maps become JSONB; a union with null makes a column nullable.
 */
public final class AvroTypes {

    private AvroTypes() {
    }

    /** The columns of a record schema, one per field, in order. */
    public static List<Column> columns(Schema record) {
        if (record.getType() != Schema.Type.RECORD) {
            throw new IllegalArgumentException("a source's Avro schema must be a record, not " + record.getType());
        }
        List<Column> columns = new ArrayList<>();
        for (Schema.Field field : record.getFields()) {
            Schema type = field.schema();
            boolean nullable = false;
            if (type.getType() == Schema.Type.UNION) {
                List<Schema> branches = type.getTypes().stream().filter(branch -> branch.getType() != Schema.Type.NULL)
                    .toList();
                nullable = branches.size() < type.getTypes().size();
                type = branches.size() == 1 ? branches.get(0) : null;
            }
            columns.add(new Column(field.name(), type == null ? SqlType.JSONB : sqlType(type), nullable));
        }
        return columns;
    }

    static SqlType sqlType(Schema type) {
        LogicalType logical = type.getLogicalType();
        if (logical instanceof LogicalTypes.Decimal) {
            return SqlType.DECIMAL;
        }
        if (logical != null) {
            switch (logical.getName()) {
                case "date":
                    return SqlType.DATE;
                case "time-millis", "time-micros":
                    return SqlType.TIME;
                case "timestamp-millis", "timestamp-micros", "timestamp-nanos":
                    return SqlType.TIMESTAMPTZ;
                case "local-timestamp-millis", "local-timestamp-micros", "local-timestamp-nanos":
                    return SqlType.TIMESTAMP;
                case "uuid":
                    return SqlType.VARCHAR;
                default:
                    break;
            }
        }
        return switch (type.getType()) {
            case BOOLEAN -> SqlType.BOOLEAN;
            case INT -> SqlType.INTEGER;
            case LONG -> SqlType.BIGINT;
            case FLOAT -> SqlType.REAL;
            case DOUBLE -> SqlType.DOUBLE;
            case STRING, ENUM -> SqlType.VARCHAR;
            case BYTES, FIXED -> SqlType.BYTEA;
            case RECORD, ARRAY, MAP, UNION -> SqlType.JSONB;
            case NULL -> throw new IllegalArgumentException("a field of type null has no SQL type");
        };
    }
}

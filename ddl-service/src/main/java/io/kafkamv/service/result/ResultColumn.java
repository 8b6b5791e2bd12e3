package io.kafkamv.service.result;

import io.kafkamv.connectors.schema.SqlType;

/** A column of a result set as clients see it. */
public record ResultColumn(String name, SqlType type) {
}

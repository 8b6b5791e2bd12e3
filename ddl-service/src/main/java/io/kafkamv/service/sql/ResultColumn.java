package io.kafkamv.service.sql;

import io.kafkamv.connectors.schema.SqlType;

/** A column of a result set as clients see it. */
public record ResultColumn(String name, SqlType type) {
}

package io.kafkamv.compiler.parser;

import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * {@code INCLUDE what ['header name'] [AS column]} after a source's columns: a column from the
 * record's metadata. {@code what} is the word as written (timestamp, partition, offset, key, header);
 * whoever creates the source checks it, so that a wrong one is reported with what is allowed.
 */
public record SourceInclude(String what, String header, String column, SqlParserPos pos) {
}

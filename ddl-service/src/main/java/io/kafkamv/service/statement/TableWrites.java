package io.kafkamv.service.statement;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

import io.kafkamv.compiler.catalog.Relation;
import io.kafkamv.compiler.error.CompileException;
import io.kafkamv.connectors.schema.Column;
import io.kafkamv.jobstore.CatalogEntry;
import io.kafkamv.jobstore.ObjectKind;
import io.kafkamv.service.catalog.CatalogService;
import io.kafkamv.service.error.SqlError;
import io.kafkamv.service.error.SqlState;
import io.kafkamv.service.result.ResultColumn;
import io.kafkamv.service.result.StatementResult;
import io.kafkamv.service.tables.OpenTransactions;
import io.kafkamv.service.tables.TableWriter;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlUpdate;
import org.apache.calcite.sql.dialect.CalciteSqlDialect;
import org.apache.calcite.sql.parser.SqlParserPos;

/** INSERT, UPDATE and DELETE: writes to tables, through the session's writer (its own, or a background statement's transaction). */
final class TableWrites {

    private final ServiceContext context;

    TableWrites(ServiceContext context) {
        this.context = context;
    }

    /** UPDATE and DELETE write back what they read: rows read before a transaction in flight could be stale. */
    private void refuseWhileWrittenInTransaction(Relation table, String verb) {
        boolean open;
        try {
            open = OpenTransactions.on(context.admin(), table.topic());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw SqlError.of(SqlState.QUERY_CANCELED, "canceling statement due to user request");
        } catch (ExecutionException | TimeoutException e) {
            throw SqlError.internal("cannot read the offsets of table " + table.name() + ": " + e.getMessage(), e);
        }
        if (open) {
            throw SqlError.at(SqlState.OBJECT_NOT_IN_PREREQUISITE_STATE, verb + " on \"" + table.name()
                + "\" must wait: a background statement is writing to it, and until it ends the table reads as it was before",
                1, "SHOW JOBS lists it; WAIT waits for it");
        }
    }

    StatementResult insert(Session session, SqlInsert insert, String text) {
        String name = ((SqlIdentifier) insert.getTargetTable()).getSimple();
        Relation table = writableTable(name, insert.getTargetTable(), text);
        List<Column> targets = targetColumns(table, insert.getTargetColumnList());
        int[] positions = targets.stream().mapToInt(column -> table.schema().columns().indexOf(column)).toArray();
        TableWriter.Batch batch = session.writer().batch(table);
        List<Column> columns = table.schema().columns();
        boolean allColumns = insert.getTargetColumnList() == null || insert.getTargetColumnList().isEmpty();
        java.util.function.Function<Object[], Object[]> toTableRow = row -> {
            checkWidth(row.length, positions.length, allColumns);
            Object[] tableRow = new Object[columns.size()];
            for (int i = 0; i < row.length; i++) {
                tableRow[positions[i]] = JdbcValues.toColumn(row[i], columns.get(positions[i]), table.name());
            }
            for (int i = 0; i < tableRow.length; i++) {
                if (tableRow[i] == null && !columns.get(i).nullable()) {
                    JdbcValues.toColumn(null, columns.get(i), table.name());
                }
            }
            return tableRow;
        };
        refuseRaggedValues(insert.getSource(), text);
        Optional<List<Object[]>> constants = LiteralRows.of(insert.getSource());
        if (constants.isPresent()) {
            // Every row converted before the first is written: PostgreSQL refuses VALUES (1, true), (2, 1) whole.
            constants.get().stream().map(toTableRow).toList().forEach(batch::upsert);
        } else {
            String source = insert.getSource().toSqlString(CalciteSqlDialect.DEFAULT).getSql();
            List<ResultColumn> resultColumns = context.queries().forEachRow(insert.getSource(), source, session,
                row -> batch.upsert(toTableRow.apply(row)));
            checkWidth(resultColumns.size(), positions.length, allColumns);
        }
        long count = batch.complete();
        return new StatementResult.Command("INSERT 0 " + count);
    }

    /** PostgreSQL's error for {@code VALUES (1, 2), (3)}, where Calcite's speaks of incompatible types. */
    private static void refuseRaggedValues(SqlNode source, String text) {
        if (!(source instanceof SqlCall values) || values.getKind() != SqlKind.VALUES) {
            return;
        }
        int width = -1;
        for (SqlNode operand : values.getOperandList()) {
            if (operand instanceof SqlCall row && row.getKind() == SqlKind.ROW) {
                if (width >= 0 && row.operandCount() != width) {
                    throw SqlError.at(SqlState.SYNTAX_ERROR, "VALUES lists must all be the same length",
                        CompileException.positionOf(text, row.getParserPosition()), null);
                }
                width = row.operandCount();
            }
        }
    }

    /**
     * As PostgreSQL: a row may leave out the table's last columns (they are NULL) when the INSERT names none, and
     * must give every column it names.
     */
    private static void checkWidth(int expressions, int targets, boolean allColumns) {
        if (expressions > targets) {
            throw SqlError.of(SqlState.SYNTAX_ERROR, "INSERT has more expressions than target columns");
        }
        if (expressions < targets && !allColumns) {
            throw SqlError.of(SqlState.SYNTAX_ERROR, "INSERT has more target columns than expressions");
        }
    }

    /**
     * {@code COPY table [(columns)] FROM STDIN}: the client's data, row by row as it arrives, written as INSERT
     * writes its rows. A row that cannot be read fails the COPY with PostgreSQL's error and its line and column.
     */
    StatementResult copyFrom(Session session, CopyStatement copy, String text) {
        Relation table = writableTable(copy.table(), null, text);
        SqlNodeList names = new SqlNodeList(SqlParserPos.ZERO);
        copy.columns().forEach(name -> names.add(new SqlIdentifier(name, SqlParserPos.ZERO)));
        List<Column> targets = targetColumns(table, names);
        List<Column> columns = table.schema().columns();
        int[] positions = targets.stream().mapToInt(columns::indexOf).toArray();
        TableWriter.Batch batch = session.writer().batch(table);
        CopyFormat.Decoder decoder = copy.format().decoder();
        return new StatementResult.CopyIn(targets.size(), new StatementResult.CopySink() {
            private final Utf8Lines lines = new Utf8Lines();

            @Override
            public void accept(byte[] chunk) {
                decoder.feed(lines.decode(chunk)).forEach(this::write);
            }

            @Override
            public long finish() {
                decoder.feed(lines.rest()).forEach(this::write);
                decoder.finish().forEach(this::write);
                return batch.complete();
            }

            private void write(CopyFormat.Row row) {
                List<String> fields = row.fields();
                String where = "COPY " + table.name() + ", line " + row.line();
                if (fields.size() > targets.size()) {
                    throw SqlError.of(SqlState.BAD_COPY_FILE_FORMAT, "extra data after last expected column")
                        .withContext(where + ": \"" + row.text() + "\"");
                }
                if (fields.size() < targets.size()) {
                    throw SqlError.of(SqlState.BAD_COPY_FILE_FORMAT, "missing data for column \""
                        + targets.get(fields.size()).name() + "\"").withContext(where + ": \"" + row.text() + "\"");
                }
                Object[] tableRow = new Object[columns.size()];
                for (int i = 0; i < positions.length; i++) {
                    try {
                        tableRow[positions[i]] = JdbcValues.toColumn(fields.get(i), columns.get(positions[i]), table.name());
                    } catch (SqlError error) {
                        throw error.withContext(where + ", column " + targets.get(i).name() + ": "
                            + (fields.get(i) == null ? "null input" : "\"" + fields.get(i) + "\""));
                    }
                }
                for (int i = 0; i < tableRow.length; i++) {
                    if (tableRow[i] == null && !columns.get(i).nullable()) {
                        try {
                            JdbcValues.toColumn(null, columns.get(i), table.name());
                        } catch (SqlError error) {
                            throw error.withContext(where + ": \"" + row.text() + "\"");
                        }
                    }
                }
                batch.upsert(tableRow);
            }
        });
    }

    /** Text from bytes that arrive in pieces: only whole lines are decoded, so no character is cut in two. */
    private static final class Utf8Lines {
        private byte[] rest = new byte[0];

        String decode(byte[] chunk) {
            byte[] all = new byte[rest.length + chunk.length];
            System.arraycopy(rest, 0, all, 0, rest.length);
            System.arraycopy(chunk, 0, all, rest.length, chunk.length);
            int end = all.length;
            while (end > 0 && all[end - 1] != '\n') {
                end--;
            }
            rest = java.util.Arrays.copyOfRange(all, end, all.length);
            return new String(all, 0, end, java.nio.charset.StandardCharsets.UTF_8);
        }

        String rest() {
            String text = new String(rest, java.nio.charset.StandardCharsets.UTF_8);
            rest = new byte[0];
            return text;
        }
    }

    /**
     * UPDATE and DELETE on a table with a primary key: the rows to change are found by a query over
     * the table, then written back as upserts (a changed key deletes the old row) or tombstones.
     */
    StatementResult updateOrDelete(Session session, SqlCall statement, String text) {
        boolean update = statement instanceof SqlUpdate;
        SqlNode target = update ? ((SqlUpdate) statement).getTargetTable()
            : ((SqlDelete) statement).getTargetTable();
        SqlNode condition = update ? ((SqlUpdate) statement).getCondition()
            : ((SqlDelete) statement).getCondition();
        String name = ((SqlIdentifier) target).getSimple();
        Relation table = writableTable(name, target, text);
        if (table.schema().appendOnly()) {
            throw SqlError.of(SqlState.FEATURE_NOT_SUPPORTED, (update ? "UPDATE" : "DELETE")
                + " needs a table with a primary key; \"" + name + "\" has none");
        }
        refuseWhileWrittenInTransaction(table, update ? "UPDATE" : "DELETE");
        List<Column> columns = table.schema().columns();
        StringBuilder query = new StringBuilder("SELECT ");
        query.append(String.join(", ", columns.stream().map(column -> quote(column.name())).toList()));
        int[] assigned = new int[0];
        if (update) {
            SqlUpdate sqlUpdate = (SqlUpdate) statement;
            List<Column> targets = targetColumns(table, sqlUpdate.getTargetColumnList());
            assigned = targets.stream().mapToInt(columns::indexOf).toArray();
            for (SqlNode expression : sqlUpdate.getSourceExpressionList()) {
                query.append(", ").append(expression.toSqlString(CalciteSqlDialect.DEFAULT).getSql());
            }
        }
        query.append(" FROM ").append(quote(name));
        if (condition != null) {
            query.append(" WHERE ").append(condition.toSqlString(CalciteSqlDialect.DEFAULT).getSql());
        }
        TableWriter.Batch batch = session.writer().batch(table);
        int[] newValues = assigned;
        List<String> keys = table.schema().keyColumns();
        long[] matched = {0};
        context.queries().forEachGeneratedRow(query.toString(), session, row -> {
            matched[0]++;
            Object[] old = new Object[columns.size()];
            for (int i = 0; i < old.length; i++) {
                old[i] = JdbcValues.toColumn(row[i], columns.get(i), table.name());
            }
            if (!update) {
                batch.delete(old);
                return;
            }
            Object[] changed = old.clone();
            for (int i = 0; i < newValues.length; i++) {
                changed[newValues[i]] = JdbcValues.toColumn(row[columns.size() + i], columns.get(newValues[i]), table.name());
            }
            boolean keyChanged = keys.stream().map(key -> table.schema().columns().indexOf(table.schema().column(key)
                .orElseThrow())).anyMatch(index -> !java.util.Objects.equals(old[index], changed[index]));
            if (keyChanged) {
                batch.delete(old);
            }
            batch.upsert(changed);
        });
        batch.complete();
        return new StatementResult.Command((update ? "UPDATE " : "DELETE ") + matched[0]);
    }

    private Relation writableTable(String name, SqlNode target, String text) {
        CatalogEntry entry = context.catalog().entry(name).filter(CatalogEntry::visible)
            .orElseThrow(() -> SqlError.at(SqlState.UNDEFINED_TABLE, "relation \"" + name + "\" does not exist",
                target == null ? 0 : CompileException.positionOf(text, target.getParserPosition()), null));
        if (entry.kind() != ObjectKind.TABLE) {
            throw SqlError.of(SqlState.WRONG_OBJECT_TYPE, "cannot change " + entry.kind().name()
                .toLowerCase(Locale.ROOT).replace('_', ' ') + " \"" + name + "\": only tables take writes");
        }
        return CatalogService.relation(entry);
    }

    private static String quote(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    private static List<Column> targetColumns(Relation table, SqlNodeList names) {
        if (names == null || names.isEmpty()) {
            return table.schema().columns();
        }
        List<Column> columns = new ArrayList<>();
        for (SqlNode node : names) {
            String name = ((SqlIdentifier) node).getSimple();
            columns.add(table.schema().column(name).orElseThrow(() -> SqlError.of(SqlState.UNDEFINED_COLUMN,
                "column \"" + name + "\" of relation \"" + table.name() + "\" does not exist")));
        }
        return columns;
    }
}

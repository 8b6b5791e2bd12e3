package io.kafkamv.it.pgwire;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

import io.kafkamv.it.support.ServiceExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What GUI tools and JDBC frameworks ask through pgjdbc's {@code DatabaseMetaData}: which tables and
 * materialized views there are, and their columns with JDBC types.
 */
class PgJdbcMetaDataIT {

    @RegisterExtension
    static final ServiceExtension SERVICE = new ServiceExtension();

    @Test
    void tablesAndViewsWithTheirColumnsAreListedByKindAndPattern() throws Exception {
        try (Connection connection = DriverManager.getConnection(SERVICE.jdbcUrl(), "root", "");
             Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE orders (id bigint PRIMARY KEY, customer varchar, amount decimal(10, 2))");
            statement.execute("CREATE MATERIALIZED VIEW per_customer AS SELECT customer, count(*) AS n FROM orders "
                + "GROUP BY customer");
            DatabaseMetaData metaData = connection.getMetaData();

            assertThat(tables(metaData, "%", null)).containsExactly("MATERIALIZED VIEW public.per_customer",
                "TABLE public.orders");
            assertThat(tables(metaData, "%", new String[] {"TABLE"})).containsExactly("TABLE public.orders");
            assertThat(tables(metaData, "per\\_%", new String[] {"TABLE", "MATERIALIZED VIEW"}))
                .containsExactly("MATERIALIZED VIEW public.per_customer");
            assertThat(tables(metaData, "nothing%", null)).isEmpty();

            assertThat(columns(metaData, "orders", "%")).containsExactly(
                "1 id int8 " + Types.BIGINT + " not null", "2 customer varchar " + Types.VARCHAR + " nullable",
                "3 amount numeric " + Types.NUMERIC + " nullable");
            assertThat(columns(metaData, "per_customer", "n")).containsExactly("2 n int8 " + Types.BIGINT + " not null");
        }
    }

    private static List<String> tables(DatabaseMetaData metaData, String pattern, String[] types) throws Exception {
        List<String> tables = new ArrayList<>();
        try (ResultSet rows = metaData.getTables(null, null, pattern, types)) {
            while (rows.next()) {
                tables.add(rows.getString("TABLE_TYPE") + " " + rows.getString("TABLE_SCHEM") + "." + rows.getString("TABLE_NAME"));
            }
        }
        return tables;
    }

    private static List<String> columns(DatabaseMetaData metaData, String table, String pattern) throws Exception {
        List<String> columns = new ArrayList<>();
        try (ResultSet rows = metaData.getColumns(null, "public", table, pattern)) {
            while (rows.next()) {
                columns.add(rows.getInt("ORDINAL_POSITION") + " " + rows.getString("COLUMN_NAME") + " "
                    + rows.getString("TYPE_NAME") + " " + rows.getInt("DATA_TYPE") + " "
                    + (rows.getInt("NULLABLE") == DatabaseMetaData.columnNoNulls ? "not null" : "nullable"));
            }
        }
        return columns;
    }
}

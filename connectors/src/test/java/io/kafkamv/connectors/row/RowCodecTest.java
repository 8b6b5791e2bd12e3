package io.kafkamv.connectors.row;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;

import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.SqlType;
import org.junit.jupiter.api.Test;

class RowCodecTest {

    private static final List<Column> EVERY_TYPE = Arrays.stream(SqlType.values())
        .map(type -> Column.of(type.name().toLowerCase(), type))
        .toList();

    @Test
    void everyTypeSurvivesARoundTrip() {
        RowCodec codec = new RowCodec(EVERY_TYPE);
        Object[] row = {
            true, (short) -7, 42, -9_000_000_000L, 1.5f, -2.25, new BigDecimal("-123.4500"), "héllo",
            19_000, 3_600_000, 1_700_000_000_123L, 1_700_000_000_456L, 86_400_000L, new byte[] {0, 1, -1},
            "{\"a\": 1}"
        };

        Object[] decoded = codec.decode(codec.encode(row));

        assertThat(decoded).usingRecursiveComparison().isEqualTo(row);
        assertThat(decoded[6]).isEqualTo(new BigDecimal("-123.4500"));
    }

    @Test
    void nullsTakeNoSpaceBeyondTheirBit() {
        RowCodec codec = new RowCodec(EVERY_TYPE);
        Object[] allNull = new Object[EVERY_TYPE.size()];

        byte[] bytes = codec.encode(allNull);

        assertThat(bytes).hasSize(1 + 2);
        assertThat(codec.decode(bytes)).containsOnlyNulls();
    }

    @Test
    void equalRowsEncodeToEqualBytes() {
        RowCodec codec = new RowCodec(List.of(Column.of("k", SqlType.VARCHAR), Column.of("n", SqlType.BIGINT)));

        assertThat(codec.encode(new Object[] {"a", 1L})).isEqualTo(codec.encode(new Object[] {"a", 1L}));
        assertThat(codec.encode(new Object[] {"a", 1L})).isNotEqualTo(codec.encode(new Object[] {"a", 2L}));
    }

    @Test
    void aSmallIntegerRowIsSmall() {
        RowCodec codec = new RowCodec(List.of(Column.of("v1", SqlType.INTEGER)));

        assertThat(codec.encode(new Object[] {7})).hasSize(1 + 1 + 4);
    }
}

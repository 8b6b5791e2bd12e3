package io.kafkamv.connectors.row;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import io.kafkamv.connectors.schema.Column;
import io.kafkamv.connectors.schema.SqlType;
import org.junit.jupiter.api.Test;

class RowCodecTest {

    private static final List<Column> EVERY_TYPE = Arrays.stream(SqlType.values())
        .map(type -> Column.of(type.name().toLowerCase(), type))
        .toList();

    private static Object[] aRowOfEveryType() {
        return new Object[] {
            true, (short) -7, 42, -9_000_000_000L, 1.5f, -2.25, new BigDecimal("-123.4500"), "héllo",
            19_000, 3_600_000, 1_700_000_000_123L, 1_700_000_000_456L, 86_400_000L, new byte[] {0, 1, -1},
            "{\"a\": 1}"
        };
    }

    @Test
    void everyTypeSurvivesARoundTrip() {
        RowCodec codec = new RowCodec(EVERY_TYPE);
        Object[] row = aRowOfEveryType();

        Object[] decoded = codec.decode(codec.encode(row));

        assertThat(decoded).usingRecursiveComparison().isEqualTo(row);
        assertThat(decoded[6]).isEqualTo(new BigDecimal("-123.4500"));
    }

    /**
     * Rows written by any version are in changelogs and topics, so the bytes never change: these were written by
     * the codec before it stopped using ByteBuffer and ByteArrayOutputStream.
     */
    @Test
    void theBytesAreThoseEveryEarlierVersionWrote() {
        RowCodec codec = new RowCodec(EVERY_TYPE);
        Object[] row = aRowOfEveryType();
        Object[] sparse = new Object[EVERY_TYPE.size()];
        sparse[2] = 300;
        sparse[7] = "";
        sparse[13] = new byte[200];

        assertThat(HexFormat.of().formatHex(codec.encode(row))).isEqualTo("01000001fff90000002afffffffde78ee6003fc00000"
            + "c0020000000000000806ed29bc0c68c3a96c6c6f00004a380036ee800000018bcfe5687b0000018bcfe569c80000000005265c0006"
            + "0001ff107b2261223a20317d");
        assertThat(HexFormat.of().formatHex(codec.encode(sparse))).isEqualTo("017b5f0000012c0090030" + "0".repeat(399));
        assertThat(codec.decode(codec.encode(sparse))).usingRecursiveComparison().isEqualTo(sparse);
    }

    @Test
    void aRowCutShortIsAnErrorNotAShorterRow() {
        RowCodec codec = new RowCodec(List.of(Column.of("k", SqlType.VARCHAR), Column.of("n", SqlType.BIGINT)));
        byte[] bytes = codec.encode(new Object[] {"abc", 1L});

        assertThatThrownBy(() -> codec.decode(Arrays.copyOf(bytes, bytes.length - 1)))
            .isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> codec.decode(Arrays.copyOf(bytes, 4))).isInstanceOf(IndexOutOfBoundsException.class)
            .hasMessageContaining("runs past the end");
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
    @Test
    void aRowIsReadAtAnOffsetAndOnlyTheColumnsAskedForAreBuilt() {
        RowCodec codec = new RowCodec(EVERY_TYPE);
        Object[] sparse = new Object[EVERY_TYPE.size()];
        sparse[5] = 0.5;
        sparse[6] = new BigDecimal("1.25");
        sparse[14] = "{}";
        for (Object[] row : List.of(aRowOfEveryType(), sparse)) {
            byte[] encoded = codec.encode(row);
            // As a timestamped store keeps a row: eight bytes of timestamp before it.
            byte[] stored = new byte[8 + encoded.length];
            System.arraycopy(encoded, 0, stored, 8, encoded.length);

            assertThat(codec.decode(stored, 8)).usingRecursiveComparison().isEqualTo(row);
            for (int[] columns : List.of(new int[] {}, new int[] {0}, new int[] {6}, new int[] {14},
                new int[] {1, 5, 6, 7}, new int[] {2, 8, 13, 14}, java.util.stream.IntStream.range(0, 15).toArray())) {
                Object[] expected = Arrays.stream(columns).mapToObj(column -> row[column]).toArray();
                assertThat(codec.decode(stored, 8, columns)).usingRecursiveComparison().isEqualTo(expected);
            }
        }
    }

    @Test
    void aRowCutShortIsAnErrorWhenOnlySomeColumnsAreRead() {
        RowCodec codec = new RowCodec(List.of(Column.of("k", SqlType.VARCHAR), Column.of("n", SqlType.BIGINT)));
        byte[] bytes = codec.encode(new Object[] {"abc", 1L});

        assertThatThrownBy(() -> codec.decode(Arrays.copyOf(bytes, 4), 0, new int[] {1}))
            .isInstanceOf(IndexOutOfBoundsException.class).hasMessageContaining("runs past the end");
    }
}

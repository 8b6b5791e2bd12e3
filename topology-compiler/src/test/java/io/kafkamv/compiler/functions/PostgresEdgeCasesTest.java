package io.kafkamv.compiler.functions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;

import io.kafkamv.compiler.types.InvalidInputException;
import org.apache.calcite.avatica.util.ByteString;
import org.junit.jupiter.api.Test;

/** Edge cases of encode/decode, gcd/lcm and make_timestamp; each expected value is what PostgreSQL 15 gave. */
class PostgresEdgeCasesTest {

    @Test
    void escapeDecodingTakesTheTextsUtf8BytesAndOctalsUpTo377() {
        assertThat(ByteaEncodings.decode("é\\101\\\\", "escape").getBytes())
            .isEqualTo(new byte[] {(byte) 0xc3, (byte) 0xa9, 'A', '\\'});
        assertThatThrownBy(() -> ByteaEncodings.decode("\\777", "escape")).isInstanceOf(InvalidInputException.class)
            .hasMessage("invalid input syntax for type bytea");
    }

    @Test
    void base64IsStrictButForWhitespaceAndEndsAFullLastLineWithANewline() {
        assertThat(new String(ByteaEncodings.decode("YW\nJj", "base64").getBytes(), StandardCharsets.UTF_8)).isEqualTo("abc");
        assertThatThrownBy(() -> ByteaEncodings.decode("YW*Jj", "base64"))
            .hasMessage("invalid symbol \"*\" found while decoding base64 sequence");
        assertThatThrownBy(() -> ByteaEncodings.decode("YWI", "base64")).hasMessage("invalid base64 end sequence");
        assertThat(ByteaEncodings.encode(new ByteString(new byte[57]), "base64")).hasSize(77).endsWith("\n");
        assertThatThrownBy(() -> ByteaEncodings.decode("٣٣", "hex")).hasMessage("invalid hexadecimal digit: \"٣\"");
    }

    @Test
    void gcdAndLcmOfEachTypeAndTheirOverflows() {
        assertThat(NumericFunctions.gcd(new BigDecimal("12.5"), new BigDecimal("2.5"))).isEqualTo(new BigDecimal("2.5"));
        assertThat(NumericFunctions.lcm(new BigDecimal("1.5"), new BigDecimal("2.25"))).isEqualTo(new BigDecimal("4.50"));
        assertThat(NumericFunctions.gcd(-12, 18)).isEqualTo(6);
        assertThatThrownBy(() -> NumericFunctions.gcd(Integer.MIN_VALUE, 0)).hasMessage("integer overflow");
        assertThatThrownBy(() -> NumericFunctions.lcm(Long.MIN_VALUE, 1L)).hasMessage("long overflow");
    }

    @Test
    void makeTimestampTakesALeapSecondAndTwentyFourOClock() {
        long midnight = DateConstructors.makeTimestamp(2024, 2, 29, 24, 0, 0);
        assertThat(midnight).isEqualTo(DateConstructors.makeTimestamp(2024, 3, 1, 0, 0, 0));
        assertThat(DateConstructors.makeTimestamp(2024, 2, 29, 23, 59, 60))
            .isEqualTo(DateConstructors.makeTimestamp(2024, 3, 1, 0, 0, 0));
        assertThatThrownBy(() -> DateConstructors.makeTimestamp(2024, 2, 29, 12, 5, 61))
            .hasMessage("time field value out of range: 12:05:61");
        assertThatThrownBy(() -> DateConstructors.makeTimestamp(2024, 2, 29, 12, 5, Double.NaN))
            .isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> DateConstructors.makeDate(9_999_999, 1, 1)).hasMessage("date out of range: 9999999-01-01");
    }
}

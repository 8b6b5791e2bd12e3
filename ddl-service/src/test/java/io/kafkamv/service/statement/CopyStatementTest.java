package io.kafkamv.service.statement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;

import io.kafkamv.service.error.SqlError;
import org.junit.jupiter.api.Test;

class CopyStatementTest {

    @Test
    void readsBothOptionForms() {
        CopyStatement modern = CopyStatement.parse("copy \"Orders\" (id, Name) from stdin with (format csv, header true, "
            + "delimiter ';', null 'NULL')");
        assertThat(modern.table()).isEqualTo("Orders");
        assertThat(modern.columns()).containsExactly("id", "name");
        assertThat(modern.from()).isTrue();
        assertThat(modern.format()).isEqualTo(new CopyFormat(true, true, ';', "NULL", '"', '"'));

        CopyStatement legacy = CopyStatement.parse("COPY t FROM STDIN WITH CSV HEADER DELIMITER AS '|' NULL AS ''");
        assertThat(legacy.format()).isEqualTo(new CopyFormat(true, true, '|', "", '"', '"'));

        CopyStatement query = CopyStatement.parse("COPY (SELECT f(x) FROM t WHERE (a) > 1) TO STDOUT");
        assertThat(query.query()).isEqualTo("SELECT f(x) FROM t WHERE (a) > 1");
        assertThat(query.format()).isEqualTo(new CopyFormat(false, false, '\t', "\\N", '"', '"'));
    }

    @Test
    void refusesFilesAndBinary() {
        assertThatThrownBy(() -> CopyStatement.parse("COPY t FROM '/etc/passwd'"))
            .isInstanceOfSatisfying(SqlError.class, e -> assertThat(e.state().code()).isEqualTo("0A000"));
        assertThatThrownBy(() -> CopyStatement.parse("COPY t TO STDOUT (FORMAT binary)"))
            .isInstanceOfSatisfying(SqlError.class, e -> assertThat(e.state().code()).isEqualTo("0A000"));
        assertThatThrownBy(() -> CopyStatement.parse("COPY t FROM STDIN (HEADER)"))
            .hasMessage("cannot specify HEADER in TEXT mode");
    }

    @Test
    void textFormatReadsEscapesAndNullsAcrossChunks() {
        CopyFormat.Decoder decoder = CopyStatement.parse("COPY t FROM STDIN").format().decoder();
        assertThat(decoder.feed("1\ta\\tb\t\\N\n2\t")).extracting(CopyFormat.Row::fields)
            .containsExactly(Arrays.asList("1", "a\tb", null));
        List<CopyFormat.Row> rest = decoder.feed("back\\\\slash\t\\101\n\\.\nignored\n");
        assertThat(rest).extracting(CopyFormat.Row::fields).containsExactly(List.of("2", "back\\slash", "A"));
        assertThat(rest.get(0).line()).isEqualTo(2);
        assertThat(decoder.finish()).isEmpty();
    }

    @Test
    void csvTellsNullFromEmptyAndKeepsQuotedNewlines() {
        CopyFormat format = CopyStatement.parse("COPY t FROM STDIN (FORMAT csv)").format();
        CopyFormat.Decoder decoder = format.decoder();
        assertThat(decoder.feed("1,,\"\"\n2,\"two\nlines\",\"say \"\"hi\"\"\"")).extracting(CopyFormat.Row::fields)
            .containsExactly(Arrays.asList("1", null, ""));
        assertThat(decoder.finish()).extracting(CopyFormat.Row::fields)
            .containsExactly(List.of("2", "two\nlines", "say \"hi\""));
        assertThat(format.line(Arrays.asList("1", null, "", "a,b", "say \"hi\"")))
            .isEqualTo("1,,\"\",\"a,b\",\"say \"\"hi\"\"\"\n");
    }
}

package io.kafkamv.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.kafkamv.bench.measure.ProgressSample;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

class ProgressPlotTest {

    @Test
    void drawsEverySampleInsideThePlotAndMarksWhenTheViewBecameQueryable() throws Exception {
        List<ProgressSample> samples = List.of(new ProgressSample(200, 0.1), new ProgressSample(4000, 0.5),
            new ProgressSample(9000, 1.0));

        Document svg = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new ByteArrayInputStream(
            ProgressPlot.svg("a <title>", samples, 10.0).getBytes(StandardCharsets.UTF_8)));

        Element line = (Element) svg.getElementsByTagName("polyline").item(0);
        String[] points = line.getAttribute("points").split(" ");
        assertThat(points).hasSize(3);
        double[] first = xy(points[0]);
        double[] last = xy(points[2]);
        assertThat(first[0]).isLessThan(last[0]);
        assertThat(first[1]).isGreaterThan(last[1]);
        assertThat(last[1]).isEqualTo(ProgressPlot.y(1.0));
        assertThat(last[0]).isEqualTo(ProgressPlot.x(9.0, 10.0), org.assertj.core.api.Assertions.within(0.1));
        assertThat(svg.getDocumentElement().getTextContent()).contains("a <title>").contains("queryable at 10 s");
    }

    private static double[] xy(String point) {
        String[] parts = point.split(",");
        return new double[] {Double.parseDouble(parts[0]), Double.parseDouble(parts[1])};
    }
}

package io.kafkamv.bench.report;

import io.kafkamv.bench.measure.ProgressSample;
import java.util.List;
import java.util.Locale;

/** SHOW JOBS progress over time as an SVG line chart, with a mark where the view became queryable. */
public final class ProgressPlot {

    private static final int WIDTH = 640;
    private static final int HEIGHT = 360;
    private static final int LEFT = 56;
    private static final int RIGHT = 20;
    private static final int TOP = 30;
    private static final int BOTTOM = 44;

    private ProgressPlot() {
    }

    public static String svg(String title, List<ProgressSample> samples, double visibleSeconds) {
        double maxSeconds = Math.max(visibleSeconds, samples.isEmpty() ? 0 : samples.get(samples.size() - 1).millis() / 1000.0);
        maxSeconds = maxSeconds <= 0 ? 1 : maxSeconds;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                + "font-family=\"sans-serif\" font-size=\"12\">%n", WIDTH, HEIGHT, WIDTH, HEIGHT));
        svg.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"18\" font-size=\"14\">%s</text>%n", LEFT, escape(title)));
        for (int percent = 0; percent <= 100; percent += 25) {
            double y = y(percent / 100.0);
            svg.append(String.format(Locale.ROOT,
                "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                    + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%d%%</text>%n",
                LEFT, y, WIDTH - RIGHT, y, LEFT - 6, y + 4, percent));
        }
        double step = niceStep(maxSeconds);
        for (double second = 0; second <= maxSeconds + 1e-9; second += step) {
            double x = x(second, maxSeconds);
            svg.append(String.format(Locale.ROOT,
                "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#eee\"/>"
                    + "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
                x, TOP, x, HEIGHT - BOTTOM, x, HEIGHT - BOTTOM + 16, trim(second)));
        }
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">seconds since CREATE</text>%n",
            (LEFT + WIDTH - RIGHT) / 2, HEIGHT - 8));
        StringBuilder points = new StringBuilder();
        for (ProgressSample sample : samples) {
            points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x(sample.millis() / 1000.0, maxSeconds), y(sample.fraction())));
        }
        svg.append("<polyline fill=\"none\" stroke=\"#1f6feb\" stroke-width=\"2\" points=\"")
            .append(points.toString().trim()).append("\"/>\n");
        double visibleX = x(visibleSeconds, maxSeconds);
        svg.append(String.format(Locale.ROOT,
            "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#d1242f\" stroke-dasharray=\"4 3\"/>"
                + "<text x=\"%.1f\" y=\"%d\" text-anchor=\"end\" fill=\"#d1242f\">queryable at %s s</text>%n",
            visibleX, TOP, visibleX, HEIGHT - BOTTOM, visibleX - 4, TOP + 14, trim(visibleSeconds)));
        svg.append("</svg>\n");
        return svg.toString();
    }

    static double x(double seconds, double maxSeconds) {
        return LEFT + seconds / maxSeconds * (WIDTH - LEFT - RIGHT);
    }

    static double y(double fraction) {
        return HEIGHT - BOTTOM - Math.min(1, Math.max(0, fraction)) * (HEIGHT - TOP - BOTTOM);
    }

    private static double niceStep(double maxSeconds) {
        for (double step : new double[] {0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300}) {
            if (maxSeconds / step <= 10) {
                return step;
            }
        }
        return 600;
    }

    private static String trim(double seconds) {
        return seconds == Math.rint(seconds) ? String.valueOf((long) seconds) : String.format(Locale.ROOT, "%.1f", seconds);
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}

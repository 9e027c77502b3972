package dev.memfas.cli;

import dev.memfas.telemetry.TurnTelemetry;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BiFunction;

/**
 * A telemetry report as one self-contained HTML file: inline CSS and SVG charts, no script and nothing fetched. Every
 * text from the log or the store (queries, topics, memory texts, ids) is escaped: it is data, never markup. Each number
 * a reader may want to check carries a {@code data-k} attribute naming it.
 */
final class HtmlReport {
    /** Share of included memories reported helpful that memfas aims for. */
    static final double PRECISION_TARGET = 0.80;
    /** The most bars a per-turn chart draws; longer logs are averaged over runs of consecutive turns. */
    private static final int MAX_TURN_POINTS = 300;
    private static final String CURATED = "#2563eb";
    private static final String BASELINE = "#d1d5db";
    private static final String P95 = "#dc2626";
    private static final DateTimeFormatter MINUTE = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter HOUR = DateTimeFormatter.ofPattern("MM-dd HH'h'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private final StringBuilder html = new StringBuilder(64 * 1024);

    private HtmlReport() {}

    /**
     * @param numbers what to show
     * @param period how the period was chosen, for the heading ("the last 7 days", "the whole log")
     * @param texts the text of a memory by namespace and id, or null when the store no longer has it
     */
    static String render(ReportNumbers numbers, String period, BiFunction<String, String, String> texts,
            Instant generatedAt) {
        HtmlReport r = new HtmlReport();
        r.page(numbers, period, texts, generatedAt);
        return r.html.toString();
    }

    private void page(ReportNumbers n, String period, BiFunction<String, String, String> texts, Instant generatedAt) {
        ReportNumbers.Totals t = n.totals();
        html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<title>memfas report</title>\n<style>\n").append(CSS).append("</style>\n</head>\n<body>\n");
        html.append("<h1>memfas report</h1>\n<p class=\"sub\">").append(esc(period));
        if (t.turns() > 0) {
            html.append(": ").append(MINUTE.format(t.first())).append(" to ").append(MINUTE.format(t.last()));
        }
        html.append(". Made ").append(MINUTE.format(generatedAt)).append(".</p>\n");
        if (t.turns() == 0) {
            html.append("<p>No turns in this period.</p>\n</body>\n</html>\n");
            return;
        }
        cards(n);
        tokensPerTurn(n.turns());
        tokensPerDay(n);
        latency(n);
        html.append("<div class=\"row\">\n");
        utilization(n);
        topicShifts(n);
        html.append("</div>\n");
        dayTable(n);
        memories(n, texts);
        html.append("<footer>Nearest-rank percentiles. Days are UTC. A usage report counts for the latest turn of its"
                + " session before it.</footer>\n</body>\n</html>\n");
    }

    private void cards(ReportNumbers n) {
        ReportNumbers.Totals t = n.totals();
        html.append("<section class=\"cards\">\n");
        card("turns", Long.toString(t.turns()), "turns", t.sessions() + " sessions");
        card("curated_tokens", Long.toString(t.curatedTokens()), "tokens sent", "as curated context");
        if (t.turnsWithBaseline() > 0) {
            card("tokens_saved", Long.toString(t.tokensSaved()), "tokens saved",
                    String.format(Locale.ROOT, "of %d baseline, over %d turns", t.baselineTokens(),
                            t.turnsWithBaseline()));
        }
        card("latency_p50_ms", ms(t.latencyP50Ms()), "ms p50", "p95 " + ms(t.latencyP95Ms()) + " ms");
        card("mean_budget_use", pct(t.meanUtilization()), "budget used", "mean per turn");
        card("topic_shifts", Integer.toString(t.topicShifts()), "topic shifts", "");
        ReportNumbers.Precision p = n.precision();
        if (p.share().isPresent()) {
            double share = p.share().getAsDouble();
            card("precision", pct(share), "reported helpful", String.format(Locale.ROOT,
                    "%d of %d included, %d turns; goal %s", p.helpful(), p.included(), p.reportedTurns(),
                    pct(PRECISION_TARGET)), share >= PRECISION_TARGET ? "good" : "low");
        } else {
            card("precision", "n/a", "reported helpful", "no usage reported (reportUsage)");
        }
        ReportNumbers.Facts f = n.facts();
        if (f.conversations() > 0) {
            card("facts", Long.toString(f.facts()), "facts taken", String.format(Locale.ROOT,
                    "from %d conversations (%d failed); model tokens %d read, %d written; cost %.4f",
                    f.conversations(), f.failed(), f.inputTokens(), f.outputTokens(), f.cost()));
        }
        html.append("</section>\n");
    }

    private void card(String key, String value, String label, String note) {
        card(key, value, label, note, null);
    }

    private void card(String key, String value, String label, String note, String mood) {
        html.append("<div class=\"card").append(mood == null ? "" : " " + mood).append("\"><div class=\"v\" data-k=\"")
                .append(key).append("\">").append(esc(value)).append("</div><div class=\"l\">").append(esc(label))
                .append("</div><div class=\"n\">").append(esc(note)).append("</div></div>\n");
    }

    private void tokensPerTurn(List<TurnTelemetry> turns) {
        int runs = Math.min(turns.size(), MAX_TURN_POINTS);
        double[] curated = new double[runs];
        double[] baseline = new double[runs];
        boolean anyBaseline = false;
        for (int i = 0; i < runs; i++) {
            int from = (int) ((long) i * turns.size() / runs);
            int to = (int) ((long) (i + 1) * turns.size() / runs);
            for (int j = from; j < to; j++) {
                curated[i] += turns.get(j).curatedTokens();
                if (turns.get(j).baselineTokens().isPresent()) {
                    baseline[i] += turns.get(j).baselineTokens().getAsInt();
                    anyBaseline = true;
                }
            }
            curated[i] /= to - from;
            baseline[i] /= to - from;
        }
        String note = runs < turns.size() ? " (each bar the mean of about " + (turns.size() / runs) + " turns)" : "";
        figure("Tokens per turn" + note, anyBaseline ? "curated context against the caller's full history"
                : "curated context (no turn gave a baseline)");
        List<Series> series = new ArrayList<>();
        if (anyBaseline) {
            series.add(new Series("baseline", BASELINE, baseline));
        }
        series.add(new Series("curated", CURATED, curated));
        bars(series, List.of(), true, "tokens");
        html.append("</figure>\n");
    }

    private void tokensPerDay(ReportNumbers n) {
        figure("Tokens per day", "sum over the day's turns");
        double[] curated = n.days().stream().mapToDouble(ReportNumbers.Day::curatedTokens).toArray();
        double[] baseline = n.days().stream().mapToDouble(ReportNumbers.Day::baselineTokens).toArray();
        List<String> labels = n.days().stream().map(d -> d.date().toString().substring(5)).toList();
        List<Series> series = new ArrayList<>();
        if (n.totals().turnsWithBaseline() > 0) {
            series.add(new Series("baseline", BASELINE, baseline));
        }
        series.add(new Series("curated", CURATED, curated));
        bars(series, labels, false, "tokens");
        html.append("</figure>\n");
    }

    private void latency(ReportNumbers n) {
        figure("Latency over time", "p50 and p95 of getContext, per " + (n.latency().size() > 1
                && java.time.Duration.between(n.latency().get(0).start(), n.latency().get(1).start()).toHours() >= 24
                ? "day" : "hour"));
        double[] p50 = n.latency().stream().mapToDouble(ReportNumbers.LatencyBucket::p50Ms).toArray();
        double[] p95 = n.latency().stream().mapToDouble(ReportNumbers.LatencyBucket::p95Ms).toArray();
        List<String> labels = n.latency().stream().map(b -> HOUR.format(b.start())).toList();
        lines(List.of(new Series("p95", P95, p95), new Series("p50", CURATED, p50)), labels, "ms");
        html.append("</figure>\n");
    }

    private void utilization(ReportNumbers n) {
        chartWidth = HALF;
        figure("Budget use", "turns by the share of their budget the context filled");
        double[] counts = new double[ReportNumbers.UTILIZATION_BINS];
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < counts.length; i++) {
            counts[i] = n.utilization()[i];
            labels.add((i * 10) + "%");
        }
        bars(List.of(new Series("turns", CURATED, counts)), labels, false, "turns");
        html.append("</figure>\n");
        chartWidth = WIDE;
    }

    private void topicShifts(ReportNumbers n) {
        chartWidth = HALF;
        figure("Topic shifts", "turns that moved their session to a new topic, per day");
        double[] shifts = n.days().stream().mapToDouble(ReportNumbers.Day::topicShifts).toArray();
        List<String> labels = n.days().stream().map(d -> d.date().toString().substring(5)).toList();
        bars(List.of(new Series("shifts", "#7c3aed", shifts)), labels, false, "turns");
        html.append("</figure>\n");
        chartWidth = WIDE;
    }

    private void dayTable(ReportNumbers n) {
        html.append("<h2>By day</h2>\n<table class=\"num\">\n<tr><th>day (UTC)</th><th>turns</th><th>tokens sent</th>"
                + "<th>baseline</th><th>saved</th><th>p50 ms</th><th>p95 ms</th><th>budget used</th>"
                + "<th>topic shifts</th></tr>\n");
        for (ReportNumbers.Day d : n.days()) {
            String day = d.date().toString();
            html.append("<tr><td>").append(day).append("</td>");
            cell(day + ".turns", Integer.toString(d.turns()));
            cell(day + ".curated_tokens", Long.toString(d.curatedTokens()));
            cell(day + ".baseline_tokens", Long.toString(d.baselineTokens()));
            cell(day + ".tokens_saved", Long.toString(d.tokensSaved()));
            cell(day + ".latency_p50_ms", ms(d.latencyP50Ms()));
            cell(day + ".latency_p95_ms", ms(d.latencyP95Ms()));
            cell(day + ".budget_use", pct(d.meanUtilization()));
            cell(day + ".topic_shifts", Integer.toString(d.topicShifts()));
            html.append("</tr>\n");
        }
        html.append("</table>\n");
    }

    private void cell(String key, String value) {
        html.append("<td data-k=\"").append(esc(key)).append("\">").append(esc(value)).append("</td>");
    }

    private void memories(ReportNumbers n, BiFunction<String, String, String> texts) {
        html.append("<h2>Most included memories</h2>\n<table>\n<tr><th>memory</th><th class=\"r\">included</th>"
                + "<th class=\"r\">reported helpful</th></tr>\n");
        for (ReportNumbers.MemoryUse m : n.mostIncluded()) {
            String text = texts.apply(m.namespace(), m.id());
            String shown = text == null ? "(no longer in the store)" : text.length() > 300
                    ? text.substring(0, 300) + "…" : text;
            String key = m.namespace() + "/" + m.id();
            html.append("<tr><td><div class=\"mt\">").append(esc(shown)).append("</div><div class=\"id\">")
                    .append(esc(key)).append("</div></td>");
            html.append("<td class=\"r\" data-k=\"included.").append(esc(key)).append("\">").append(m.included())
                    .append("</td><td class=\"r\" data-k=\"helpful.").append(esc(key)).append("\">")
                    .append(m.reportedHelpful()).append("</td></tr>\n");
        }
        html.append("</table>\n");
    }

    private void figure(String title, String caption) {
        html.append("<figure><figcaption><b>").append(esc(title)).append("</b> <span>").append(esc(caption))
                .append("</span></figcaption>\n");
    }

    // ------------------------------------------------------------------ charts

    private record Series(String name, String colour, double[] values) {}

    /** The width of a chart's drawing: the page's, or half of it for the charts side by side. */
    private static final int WIDE = 960;
    private static final int HALF = 470;
    private static final int H = 230;
    private static final int LEFT = 60;
    private static final int RIGHT = 24;
    private static final int BOTTOM = 28;
    private static final int TOP = 24;

    private int chartWidth = WIDE;

    /**
     * Bars; several series overlap when {@code overlap} (a smaller one drawn over a larger one, as curated over
     * baseline), else stand side by side.
     */
    private void bars(List<Series> series, List<String> labels, boolean overlap, String unit) {
        int n = series.get(0).values().length;
        double top = svgOpen(unit, series);
        double slot = (double) (chartWidth - LEFT - RIGHT) / Math.max(1, n);
        int k = overlap ? 1 : series.size();
        for (int si = 0; si < series.size(); si++) {
            Series s = series.get(si);
            double barWidth = Math.max(1, slot * 0.8 / k);
            for (int i = 0; i < n; i++) {
                double h = top == 0 ? 0 : s.values()[i] / top * (H - TOP - BOTTOM);
                double x = LEFT + i * slot + slot * 0.1 + (overlap ? 0 : si * barWidth);
                html.append(String.format(Locale.ROOT,
                        "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>%s: %s</title>"
                                + "</rect>", x, H - BOTTOM - h, barWidth, h, s.colour(), esc(s.name()), num(s.values()[i])));
            }
        }
        xLabels(labels, slot, true);
        html.append("</svg>\n");
    }

    private void lines(List<Series> series, List<String> labels, String unit) {
        int n = series.get(0).values().length;
        double top = svgOpen(unit, series);
        double slot = n <= 1 ? 0 : (double) (chartWidth - LEFT - RIGHT - 16) / (n - 1);
        for (Series s : series) {
            StringBuilder points = new StringBuilder();
            for (int i = 0; i < n; i++) {
                double x = LEFT + 8 + i * slot;
                double y = H - BOTTOM - (top == 0 ? 0 : s.values()[i] / top * (H - TOP - BOTTOM));
                points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
                html.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\">"
                        + "<title>%s %s: %s ms</title></circle>", x, y, s.colour(), esc(s.name()),
                        esc(i < labels.size() ? labels.get(i) : ""), num(s.values()[i])));
            }
            html.append("<polyline fill=\"none\" stroke-width=\"2\" stroke=\"").append(s.colour())
                    .append("\" points=\"").append(points.toString().strip()).append("\"/>");
        }
        xLabels(labels, slot, false);
        html.append("</svg>\n");
    }

    /** Opens a chart with its grid, axis and legend; returns the value at the top of its axis. */
    private double svgOpen(String unit, List<Series> series) {
        double max = 0;
        for (Series s : series) {
            for (double v : s.values()) {
                max = Math.max(max, v);
            }
        }
        double top = niceCeiling(max);
        html.append("<svg viewBox=\"0 0 ").append(chartWidth).append(' ').append(H)
                .append("\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\">");
        for (int g = 0; g <= 4; g++) {
            double v = top * g / 4;
            double y = H - BOTTOM - (double) g / 4 * (H - TOP - BOTTOM);
            html.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>"
                    + "<text x=\"%d\" y=\"%.1f\" class=\"ax\" text-anchor=\"end\">%s</text>", LEFT, chartWidth - RIGHT, y, y,
                    LEFT - 6, y + 4, num(v)));
        }
        html.append(String.format(Locale.ROOT, "<text x=\"4\" y=\"11\" class=\"ax\">%s</text>", esc(unit)));
        int x = chartWidth - RIGHT;
        for (int i = series.size() - 1; i >= 0; i--) {
            Series s = series.get(i);
            x -= 8 + s.name().length() * 7;
            html.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"2\" width=\"10\" height=\"10\" fill=\"%s\"/>"
                    + "<text x=\"%d\" y=\"11\" class=\"ax\">%s</text>", x - 14, s.colour(), x, esc(s.name())));
            x -= 20;
        }
        return top;
    }

    private void xLabels(List<String> labels, double slot, boolean centred) {
        if (labels.isEmpty()) {
            return;
        }
        int every = Math.max(1, (int) Math.ceil(labels.size() / 12.0));
        for (int i = 0; i < labels.size(); i += every) {
            double x = centred ? LEFT + i * slot + slot / 2 : LEFT + 8 + i * slot;
            html.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" class=\"ax\" text-anchor=\"middle\">"
                    + "%s</text>", x, H - 8, esc(labels.get(i))));
        }
    }

    /** 1, 2 or 5 times a power of ten, at least the maximum, so the axis reads in round numbers. */
    private static double niceCeiling(double max) {
        if (max <= 0) {
            return 1;
        }
        double power = Math.pow(10, Math.floor(Math.log10(max)));
        for (double step : new double[] {1, 2, 5, 10}) {
            if (step * power >= max) {
                return step * power;
            }
        }
        return 10 * power;
    }

    // ------------------------------------------------------------------ text

    static String esc(String s) {
        StringBuilder out = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(Character.isISOControl(c) && c != '\n' && c != '\t' ? ' ' : c);
            }
        }
        return out.toString();
    }

    private static String ms(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    private static String pct(double share) {
        return String.format(Locale.ROOT, "%.0f%%", share * 100);
    }

    private static String num(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v)
                : String.format(Locale.ROOT, "%.1f", v);
    }

    private static final String CSS = """
            body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#111827;max-width:1000px;
              margin:24px auto;padding:0 16px;background:#fff}
            h1{font-size:24px;margin:0}h2{font-size:17px;margin:28px 0 8px}
            .sub{color:#6b7280;margin:4px 0 16px}
            .cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:10px;margin-bottom:8px}
            .card{border:1px solid #e5e7eb;border-radius:8px;padding:10px 12px}
            .card .v{font-size:22px;font-weight:600}.card .l{color:#374151}.card .n{color:#9ca3af;font-size:12px}
            .card.good{border-color:#16a34a}.card.good .v{color:#15803d}
            .card.low{border-color:#f59e0b}.card.low .v{color:#b45309}
            figure{margin:18px 0}figcaption{margin-bottom:4px}figcaption span{color:#6b7280}
            .row{display:grid;grid-template-columns:1fr 1fr;gap:16px}.row figure{margin:18px 0 0}
            svg{width:100%;height:auto;display:block}.ax{font-size:11px;fill:#6b7280}
            table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid #f3f4f6;padding:5px 8px;
              text-align:left;vertical-align:top}th{color:#6b7280;font-weight:500}
            table.num td:not(:first-child),table.num th:not(:first-child),.r{text-align:right}
            .mt{white-space:pre-wrap;word-break:break-word}.id{color:#9ca3af;font-size:12px}
            footer{color:#9ca3af;font-size:12px;margin:28px 0}
            """;
}

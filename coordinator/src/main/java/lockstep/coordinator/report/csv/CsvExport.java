package lockstep.coordinator.report.csv;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.OverlapWindow;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.Sample;
import lockstep.coordinator.model.StepRecord;

/** steps.csv (one row per node, step and repeat) and series.csv (one row per time-series sample). */
public final class CsvExport {
    public static final String STEPS_FILE = "steps.csv";
    public static final String SERIES_FILE = "series.csv";
    private static final CsvMapper CSV = new CsvMapper();

    private CsvExport() {
    }

    public static List<NodeStepRow> stepRows(RunRecord run) {
        List<NodeStepRow> rows = new ArrayList<>();
        for (StepRecord s : run.steps()) {
            OverlapWindow w = run.analysis() == null ? null : run.analysis().windows().stream()
                    .filter(x -> x.stepId().equals(s.id())).findFirst().orElse(null);
            for (NodeResult n : s.results()) {
                Double overlap = w == null || !w.exists() ? null : w.windowByNode().get(n.node());
                rows.add(new NodeStepRow(run.runId(), s.id(), s.group(), s.kind(), s.repeat(), n.node(), n.status(), n.ops(),
                        n.bytes(), n.seconds(), n.throughput(), run.unit(), overlap, n.startSkewMillis(), n.clockOffsetMillis(),
                        n.clockUncertaintyMillis(), n.firstOpUnixNanos(), n.endUnixNanos(), n.latency().count(),
                        n.latency().p50Micros(), n.latency().p90Micros(), n.latency().p99Micros(), n.latency().p999Micros(),
                        n.latency().maxMicros(), n.coherenceErrors(), n.error() == null ? "" : n.error().message()));
            }
        }
        return rows;
    }

    public static List<SeriesRow> seriesRows(RunRecord run) {
        List<SeriesRow> rows = new ArrayList<>();
        for (StepRecord s : run.steps()) {
            for (NodeResult n : s.results()) {
                for (Sample p : n.series() == null ? List.<Sample>of() : n.series()) {
                    rows.add(new SeriesRow(run.runId(), s.id(), s.group(), s.repeat(), n.node(), p.t(), p.ops(), p.bytes(), p.rate(), run.unit()));
                }
            }
        }
        return rows;
    }

    /** Writes both files into {@code dir}; returns their paths. */
    public static List<Path> write(RunRecord run, Path dir) throws IOException {
        Path steps = dir.resolve(STEPS_FILE);
        Path series = dir.resolve(SERIES_FILE);
        write(steps, NodeStepRow.class, stepRows(run));
        write(series, SeriesRow.class, seriesRows(run));
        return List.of(steps, series);
    }

    public static <T> void write(Path file, Class<T> type, List<T> rows) throws IOException {
        CsvSchema schema = CSV.schemaFor(type).withHeader();
        try (Writer w = Files.newBufferedWriter(file)) {
            CSV.writer(schema).writeValues(w).writeAll(rows);
        }
    }

    public static <T> void write(Writer out, Class<T> type, List<T> rows) throws IOException {
        CsvSchema schema = CSV.schemaFor(type).withHeader();
        CSV.writer(schema).writeValues(out).writeAll(rows).flush();
    }

    public static <T> List<T> read(Path file, Class<T> type) throws IOException {
        CsvSchema schema = CSV.schemaFor(type).withHeader();
        try (MappingIterator<T> it = CSV.readerFor(type).with(schema).readValues(file.toFile())) {
            return it.readAll();
        }
    }
}

package lockstep.coordinator.report.compare;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code lockstep compare --json FILE}: the comparison for a program to read (a CI job that asks
 * "did B differ from A beyond the noise?"): the runs, the side-by-side rows and the significance
 * lines. A figure that cannot be computed is null.
 */
public final class CompareJson {
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private CompareJson() {}

  public static String render(RunComparison c) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("a", c.a().runId());
    out.put("b", c.b().runId());
    out.put("unit", c.unit());
    out.put("warnings", c.warnings());
    out.put("settingDifferences", c.settingDifferences());
    List<Map<String, Object>> rows = new ArrayList<>();
    for (RunComparison.NodeRow n : c.nodes()) {
      rows.add(row(n.node(), "solo", n.solo()));
      rows.add(row(n.node(), "together", n.together()));
    }
    for (RunComparison.Row r :
        List.of(
            c.aggregate(),
            c.overlapAggregate(),
            c.sumOfSolos(),
            c.aggregateEfficiency(),
            c.meanNodeEfficiency())) {
      rows.add(row(r.label(), "", r));
    }
    out.put("rows", rows);
    SignificanceTable table = SignificanceTable.of(c.a(), c.b());
    List<Map<String, Object>> sig = new ArrayList<>();
    for (SignificanceTable.Line l : table.lines()) {
      Significance s = l.s();
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("step", l.step());
      m.put("node", l.node());
      m.put("aMean", finite(l.aMean()));
      m.put("aRepeats", s.nA());
      m.put("bMean", finite(l.bMean()));
      m.put("bRepeats", s.nB());
      m.put("ratio", finite(s.ratio()));
      m.put("ciLow", finite(s.low()));
      m.put("ciHigh", finite(s.high()));
      m.put("p", finite(s.p()));
      m.put("call", s.verdict().name().toLowerCase(Locale.ROOT).replace('_', '-'));
      m.put("repeatsToSettle", s.repeatsToSettle() > 0 ? s.repeatsToSettle() : null);
      m.put("words", s.words());
      sig.add(m);
    }
    out.put("significance", sig);
    out.put("summary", table.summary());
    try {
      return JSON.writeValueAsString(out) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Map<String, Object> row(String label, String step, RunComparison.Row r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("label", label);
    m.put("step", step);
    m.put("a", r.a());
    m.put("b", r.b());
    m.put("ratio", r.ratio());
    return m;
  }

  private static Double finite(double v) {
    return Double.isFinite(v) ? v : null;
  }
}

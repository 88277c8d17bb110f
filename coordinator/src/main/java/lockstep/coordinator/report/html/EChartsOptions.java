package lockstep.coordinator.report.html;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Small builders for ECharts option maps (serialised to JSON as they are). */
final class EChartsOptions {
  private EChartsOptions() {}

  static Map<String, Object> map(Object... kv) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      if (kv[i + 1] != null) {
        m.put((String) kv[i], kv[i + 1]);
      }
    }
    return m;
  }

  static Map<String, Object> base(String yName, List<String> legend) {
    return map(
        "animation", false,
        "grid", map("left", 70, "right", 30, "top", 50, "bottom", 60, "containLabel", true),
        "tooltip", map("trigger", "axis"),
        "legend", map("data", legend, "top", 0, "left", 0),
        "toolbox", map("right", 0, "top", 0, "feature", map("saveAsImage", map("title", "PNG"))));
  }

  static Map<String, Object> valueAxis(String name, boolean log) {
    return map(
        "type",
        log ? "log" : "value",
        "name",
        name,
        "nameLocation",
        "middle",
        "nameGap",
        50,
        "scale",
        false,
        "splitLine",
        map("show", true));
  }

  static Map<String, Object> categoryAxis(List<String> categories) {
    return map("type", "category", "data", categories);
  }

  static List<Object> point(double x, double y) {
    List<Object> p = new ArrayList<>();
    p.add(round(x));
    p.add(round(y));
    return p;
  }

  static double round(double v) {
    return Math.abs(v) >= 100 ? Math.round(v * 10) / 10.0 : Math.round(v * 10_000) / 10_000.0;
  }

  static Double roundOrNull(Double v) {
    return v == null ? null : round(v);
  }
}

package lockstep.coordinator.report.html;

import java.util.Map;

/** One chart of a report: an Apache ECharts option object, drawn by ECharts in the page. */
public record Chart(String id, String title, String caption, Map<String, Object> option) {}

package lockstep.coordinator.report.html;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * One self-contained HTML page: CSS, Apache ECharts (from its WebJar on the classpath) and the
 * charts' options are inlined, so the file opens offline and needs no network.
 */
public final class HtmlPage {
  /** Keep in step with echarts.version in coordinator/pom.xml. */
  public static final String ECHARTS_VERSION = "5.3.1";

  static final String ECHARTS =
      "META-INF/resources/webjars/echarts/" + ECHARTS_VERSION + "/dist/echarts.min.js";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static volatile String echarts;

  private final StringBuilder body = new StringBuilder();
  private final String title;

  public HtmlPage(String title) {
    this.title = title;
  }

  public HtmlPage raw(String html) {
    body.append(html).append('\n');
    return this;
  }

  public HtmlPage chart(Chart c) {
    body.append("<figure class=\"chart\"><figcaption><h3>")
        .append(esc(c.title()))
        .append("</h3><p>")
        .append(esc(c.caption()))
        .append("</p></figcaption><div class=\"chart-box\" id=\"chart-")
        .append(esc(c.id()))
        .append("\" data-chart=\"")
        .append(esc(c.id()))
        .append("\"></div></figure>\n");
    return this;
  }

  public String render(List<Chart> charts) {
    StringBuilder out = new StringBuilder(1_200_000);
    out.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        .append("<title>")
        .append(esc(title))
        .append("</title>\n<style>\n")
        .append(resource("report/report.css"))
        .append("</style>\n</head>\n<body>\n<main>\n")
        .append(body)
        .append("</main>\n")
        .append("<script>\n")
        .append(echarts())
        .append("\n</script>\n")
        .append("<script type=\"application/json\" id=\"lockstep-charts\">")
        .append(chartsJson(charts))
        .append("</script>\n")
        .append("<script>\n")
        .append(resource("report/report.js"))
        .append("</script>\n</body>\n</html>\n");
    return out.toString();
  }

  static String chartsJson(List<Chart> charts) {
    try {
      return JSON.writeValueAsString(charts).replace("</", "<\\/").replace("<!--", "<\\!--");
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("charts are not serialisable", e);
    }
  }

  static String echarts() {
    String e = echarts;
    if (e == null) {
      e = resource(ECHARTS);
      echarts = e;
    }
    return e;
  }

  static String resource(String name) {
    try (InputStream in = HtmlPage.class.getClassLoader().getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + name + " on the classpath");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A table row of escaped cells: the first {@code labels} left-aligned, the rest figures. */
  public static String row(int labels, Object... cells) {
    StringBuilder b = new StringBuilder("<tr>");
    for (int i = 0; i < cells.length; i++) {
      b.append(i < labels ? labelTd(cells[i]) : td(cells[i]));
    }
    return b.append("</tr>").toString();
  }

  /** A table cell holding a figure, escaped. */
  public static String td(Object v) {
    return "<td>" + esc(v) + "</td>";
  }

  /** A left-aligned table cell holding a label (a step, a node, a figure's name), escaped. */
  public static String labelTd(Object v) {
    return "<td class=\"l\">" + esc(v) + "</td>";
  }

  /** HTML-escapes text for element content and attribute values. */
  public static String esc(Object o) {
    if (o == null) {
      return "";
    }
    String s = o.toString();
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '&' -> b.append("&amp;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&#39;");
        default -> b.append(c);
      }
    }
    return b.toString();
  }
}

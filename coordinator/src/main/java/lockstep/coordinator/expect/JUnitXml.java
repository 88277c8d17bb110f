package lockstep.coordinator.expect;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerException;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import lockstep.coordinator.model.ExpectationOutcome;
import lockstep.coordinator.model.NodeResult;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.StepRecord;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * A run's expectations as JUnit XML, the form Jenkins' JUnit plugin and GitLab's {@code
 * artifacts:reports:junit} read: {@code <testsuites>} holding one {@code <testsuite>} per run
 * (name: the scenario's; timestamp, time, properties: run id, workload, plan, status) with one
 * {@code <testcase>} per expectation, named "efficiency >= 0.80" (classname {@code
 * lockstep.SCENARIO}), a {@code <failure>} with the printed line when it broke and an {@code
 * <error>} when the run failed outright. A run without expectations is one test case, "run".
 * Characters XML 1.0 cannot carry are written as {@code \\uXXXX}.
 */
public final class JUnitXml {
  /** Surefire's and Ant's timestamp: local date-time to the second, no zone (UTC here). */
  private static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss", Locale.ROOT).withZone(ZoneOffset.UTC);

  /** The test case of a run without expectations. */
  public static final String RUN_CASE = "run";

  private JUnitXml() {}

  private record Case(String name, String element, String type, String message, String text) {}

  private record Suite(
      String name,
      Instant when,
      double seconds,
      List<String[]> properties,
      List<Case> cases,
      String out) {}

  /** The suite of a run record (a finished, failed or collected run, judged). */
  public static String of(RunRecord run) {
    List<Case> cases = new ArrayList<>();
    String errors = String.join("\n", run.errors());
    for (ExpectationOutcome o : run.expectations()) {
      cases.add(
          switch (o.status()) {
            case HELD -> new Case(o.name(), null, null, null, null);
            case BROKEN ->
                new Case(
                    o.name(),
                    "failure",
                    "expectation-broken",
                    o.message(),
                    o.message() + "\n" + figures(o));
            case ERROR -> new Case(o.name(), "error", "run-" + run.status(), o.message(), errors);
          });
    }
    boolean ok = ExpectationJudge.judgeable(run);
    if (cases.isEmpty()) {
      cases.add(
          ok
              ? new Case(RUN_CASE, null, null, null, null)
              : new Case(
                  RUN_CASE,
                  "error",
                  "run-" + run.status(),
                  "the run " + run.status() + ": " + first(run.errors()),
                  errors));
    }
    List<String> out = new ArrayList<>();
    out.add("run " + run.runId() + ": " + run.status());
    run.expectations().forEach(o -> out.add(o.message()));
    out.addAll(run.errors());
    return render(
        new Suite(
            run.name(),
            instant(run.createdAt()),
            seconds(run),
            List.of(
                new String[] {"run-id", run.runId()},
                new String[] {"workload", run.workloadType()},
                new String[] {"plan", String.join(", ", run.plan())},
                new String[] {"status", String.valueOf(run.status())}),
            cases,
            String.join("\n", out)));
  }

  /**
   * The suite of a run that failed before it had a record (an agent unreachable or refusing, a
   * describe that failed): every expectation an error with the failure's lines.
   */
  public static String ofFailure(
      String scenario, List<Expectation> expectations, List<String> errors, Instant when) {
    String text = String.join("\n", errors);
    String message = "the run failed: " + first(errors);
    List<Case> cases = new ArrayList<>();
    for (Expectation e : expectations) {
      cases.add(
          new Case(
              e.name(),
              "error",
              "run-failed",
              "expect " + e.name() + ": not judged: " + message,
              text));
    }
    if (cases.isEmpty()) {
      cases.add(new Case(RUN_CASE, "error", "run-failed", message, text));
    }
    return render(
        new Suite(
            scenario, when, 0, List.<String[]>of(new String[] {"status", "failed"}), cases, text));
  }

  /** Writes {@code xml} to {@code file} (through a temporary file beside it, then renamed). */
  public static void write(Path file, String xml) {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try {
      Files.writeString(tmp, xml, StandardCharsets.UTF_8);
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "--junit " + file + ": cannot be written: " + e.getMessage(), e);
    }
  }

  /** The outcome's figures as run.json has them: "measured: 0.5 ratio (node2)\nbound: >= 0.8". */
  private static String figures(ExpectationOutcome o) {
    return "measured: "
        + (o.measured() == null ? "nothing" : number(o.measured()) + " " + o.unit())
        + (o.node() == null ? "" : " (" + o.node() + ")")
        + "\nbound: "
        + o.figure()
        + " "
        + o.expression();
  }

  private static String number(double v) {
    return new BigDecimal(v).round(new MathContext(6)).stripTrailingZeros().toPlainString();
  }

  private static String first(List<String> errors) {
    return errors.isEmpty()
        ? "no figures"
        : errors.get(0) + (errors.size() > 1 ? " and " + (errors.size() - 1) + " more" : "");
  }

  private static Instant instant(String createdAt) {
    try {
      return createdAt == null ? Instant.EPOCH : Instant.parse(createdAt);
    } catch (DateTimeParseException e) {
      return Instant.EPOCH;
    }
  }

  /** From the first step's start instant to the last node's end. */
  private static double seconds(RunRecord run) {
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    for (StepRecord s : run.steps()) {
      first = Math.min(first, s.intendedStartUnixNanos());
      for (NodeResult r : s.results()) {
        last = Math.max(last, r.endUnixNanos());
      }
    }
    return first == Long.MAX_VALUE || last <= first ? 0 : (last - first) / 1e9;
  }

  private static String render(Suite suite) {
    Document doc;
    try {
      doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().newDocument();
    } catch (ParserConfigurationException e) {
      throw new IllegalStateException("no XML document builder", e);
    }
    doc.setXmlStandalone(true);
    long failures = suite.cases().stream().filter(c -> "failure".equals(c.element())).count();
    long errors = suite.cases().stream().filter(c -> "error".equals(c.element())).count();
    String time = String.format(Locale.ROOT, "%.3f", suite.seconds());
    String classname = "lockstep." + suite.name().replace('.', '_');
    Element suites = doc.createElement("testsuites");
    doc.appendChild(suites);
    suites.setAttribute("name", "lockstep");
    count(suites, suite.cases().size(), failures, errors);
    suites.setAttribute("time", time);
    Element ts = doc.createElement("testsuite");
    suites.appendChild(ts);
    ts.setAttribute("name", clean(suite.name()));
    count(ts, suite.cases().size(), failures, errors);
    ts.setAttribute("skipped", "0");
    ts.setAttribute("time", time);
    ts.setAttribute("timestamp", TIMESTAMP.format(suite.when()));
    ts.setAttribute("id", "0");
    Element props = doc.createElement("properties");
    ts.appendChild(props);
    for (String[] p : suite.properties()) {
      Element e = doc.createElement("property");
      e.setAttribute("name", p[0]);
      e.setAttribute("value", clean(p[1]));
      props.appendChild(e);
    }
    for (Case c : suite.cases()) {
      Element tc = doc.createElement("testcase");
      ts.appendChild(tc);
      tc.setAttribute("name", clean(c.name()));
      tc.setAttribute("classname", clean(classname));
      tc.setAttribute("time", "0");
      if (c.element() != null) {
        Element f = doc.createElement(c.element());
        f.setAttribute("message", clean(c.message()));
        f.setAttribute("type", clean(c.type()));
        f.setTextContent(clean(c.text()));
        tc.appendChild(f);
      }
    }
    Element out = doc.createElement("system-out");
    out.setTextContent(clean(suite.out()));
    ts.appendChild(out);
    try {
      Transformer t = TransformerFactory.newInstance().newTransformer();
      t.setOutputProperty(OutputKeys.INDENT, "yes");
      t.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
      // the declaration on a line of its own (the JDK's serializer runs it into the root)
      t.setOutputProperty(OutputKeys.OMIT_XML_DECLARATION, "yes");
      t.setOutputProperty("{http://xml.apache.org/xslt}indent-amount", "2");
      StringWriter w = new StringWriter().append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
      t.transform(new DOMSource(doc), new StreamResult(w));
      return w.toString();
    } catch (TransformerException e) {
      throw new IllegalStateException("cannot write JUnit XML: " + e.getMessage(), e);
    }
  }

  private static void count(Element e, long tests, long failures, long errors) {
    e.setAttribute("tests", Long.toString(tests));
    e.setAttribute("failures", Long.toString(failures));
    e.setAttribute("errors", Long.toString(errors));
  }

  /**
   * The text with every character XML 1.0 cannot carry (control characters other than tab, newline
   * and carriage return; unpaired surrogates; U+FFFE, U+FFFF) written as {@code \\uXXXX}.
   */
  static String clean(String text) {
    if (text == null) {
      return "";
    }
    StringBuilder b = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean pair =
          Character.isHighSurrogate(c)
              && i + 1 < text.length()
              && Character.isLowSurrogate(text.charAt(i + 1));
      if (pair) {
        b.append(c).append(text.charAt(++i));
      } else if (c == '\t'
          || c == '\n'
          || c == '\r'
          || (c >= 0x20 && c < 0xD800)
          || (c > 0xDFFF && c < 0xFFFE)) {
        b.append(c);
      } else {
        b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
      }
    }
    return b.toString();
  }
}

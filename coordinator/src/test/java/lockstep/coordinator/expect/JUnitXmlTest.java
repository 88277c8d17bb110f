package lockstep.coordinator.expect;

import static lockstep.coordinator.expect.XmlElements.elements;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.SchemaFactory;
import lockstep.coordinator.analysis.TestRuns;
import lockstep.coordinator.model.RunRecord;
import lockstep.coordinator.model.RunStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.xml.sax.InputSource;

/**
 * The JUnit XML round trip: what JUnitXml writes validates against the structure Jenkins and GitLab
 * read (src/test/resources/expect/junit-report.xsd) and parses back, with the JDK's parser, into
 * the counts, names and messages of the run's expectations.
 */
class JUnitXmlTest {
  @TempDir Path tmp;

  private static final RunRecord RUN =
      TestRuns.soloThenAll(new double[] {1000, 1000}, new double[] {600, 400});

  private static RunRecord judged(RunRecord run, String... figureAndExpression) {
    PlanFigures plan = PlanFigures.of(run);
    List<Expectation> list = new ArrayList<>();
    for (int i = 0; i < figureAndExpression.length; i += 2) {
      list.add(ExpectationParser.parse(figureAndExpression[i], figureAndExpression[i + 1], plan));
    }
    return ExpectationJudge.judged(run, list);
  }

  /** Validates against the schema, then parses with the JDK's DOM parser. */
  private static Document parsed(String xml) throws Exception {
    SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI)
        .newSchema(JUnitXmlTest.class.getResource("/expect/junit-report.xsd"))
        .newValidator()
        .validate(new StreamSource(new StringReader(xml)));
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
    return f.newDocumentBuilder().parse(new InputSource(new StringReader(xml)));
  }

  private static Element only(Element parent, String name) {
    List<Element> e = elements(parent, name);
    assertThat(e).as(name).hasSize(1);
    return e.get(0);
  }

  @Test
  void oneSuitePerRunOneCaseperExpectationAndAFailureForEachBrokenOne() throws Exception {
    RunRecord run =
        judged(RUN, "efficiency", ">= 0.8", "skew", "<= 5ms", "node-throughput", ">= 1");
    Path file = tmp.resolve("lockstep.xml");
    JUnitXml.write(file, JUnitXml.of(run));
    Document doc = parsed(Files.readString(file));
    Element suites = doc.getDocumentElement();
    assertThat(suites.getTagName()).isEqualTo("testsuites");
    assertThat(suites.getAttribute("tests")).isEqualTo("3");
    assertThat(suites.getAttribute("failures")).isEqualTo("1");
    assertThat(suites.getAttribute("errors")).isEqualTo("0");
    Element suite = only(suites, "testsuite");
    assertThat(suite.getAttribute("name")).isEqualTo("test");
    assertThat(suite.getAttribute("tests")).isEqualTo("3");
    assertThat(suite.getAttribute("failures")).isEqualTo("1");
    assertThat(suite.getAttribute("errors")).isEqualTo("0");
    assertThat(suite.getAttribute("skipped")).isEqualTo("0");
    assertThat(suite.getAttribute("timestamp")).isEqualTo("2026-01-01T00:00:00");
    assertThat(Double.parseDouble(suite.getAttribute("time"))).isPositive();
    assertThat(elements(only(suite, "properties"), "property"))
        .extracting(p -> p.getAttribute("name") + "=" + p.getAttribute("value"))
        .containsExactly("run-id=r1", "workload=lock-files", "plan=solo, all", "status=ok");
    List<Element> cases = elements(suite, "testcase");
    assertThat(cases)
        .extracting(c -> c.getAttribute("name"))
        .containsExactly("efficiency >= 0.80", "skew <= 5 ms", "node-throughput >= 1 locks/s");
    assertThat(cases)
        .allSatisfy(c -> assertThat(c.getAttribute("classname")).isEqualTo("lockstep.test"));
    Element failure = only(cases.get(0), "failure");
    assertThat(failure.getAttribute("message"))
        .isEqualTo("expect efficiency >= 0.80: measured 0.50 (lowest node2 0.40)")
        .isEqualTo(run.expectations().get(0).message());
    assertThat(failure.getAttribute("type")).isEqualTo("expectation-broken");
    assertThat(failure.getTextContent())
        .startsWith("expect efficiency >= 0.80: measured 0.50")
        .endsWith("\nmeasured: 0.5 ratio\nbound: efficiency >= 0.8");
    assertThat(Files.readString(file))
        .startsWith("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites");
    assertThat(elements(cases.get(1), "failure")).isEmpty();
    assertThat(elements(cases.get(2), "failure")).isEmpty();
    assertThat(elements(suite, "error")).isEmpty();
    assertThat(only(suite, "system-out").getTextContent())
        .startsWith("run r1: ok\n")
        .contains("expect skew <= 5 ms: measured 1.000 ms");
  }

  @Test
  void aRunThatFailedOutrightMakesEachExpectationAnError() throws Exception {
    RunRecord failed =
        judged(
            TestRuns.copy(RUN)
                .named("r2", "fails")
                .unanalysed()
                .ended(RunStatus.FAILED, "node2: prepare: open lock-files.node2/test-0-40: EEXIST")
                .build()
                .withAnalysis(RUN.analysis()),
            "efficiency",
            ">= 0.8",
            "skew",
            "<= 5ms");
    Element suite = only(parsed(JUnitXml.of(failed)).getDocumentElement(), "testsuite");
    assertThat(suite.getAttribute("errors")).isEqualTo("2");
    assertThat(suite.getAttribute("failures")).isEqualTo("0");
    List<Element> errors = elements(suite, "error");
    assertThat(errors).hasSize(2);
    assertThat(errors.get(0).getAttribute("message"))
        .isEqualTo(
            "expect efficiency >= 0.80: not judged: the run failed (node2: prepare: open"
                + " lock-files.node2/test-0-40: EEXIST)");
    assertThat(errors.get(0).getAttribute("type")).isEqualTo("run-failed");
    assertThat(errors.get(0).getTextContent())
        .isEqualTo("node2: prepare: open lock-files.node2/test-0-40: EEXIST");
  }

  @Test
  void aRunWithoutExpectationsIsOneCaseNamedRun() throws Exception {
    Element ok = only(parsed(JUnitXml.of(RUN)).getDocumentElement(), "testsuite");
    assertThat(elements(ok, "testcase"))
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.getAttribute("name")).isEqualTo(JUnitXml.RUN_CASE);
              assertThat(c.getChildNodes().getLength()).isZero();
            });
    String failed =
        JUnitXml.ofFailure(
            "seed1",
            List.of(),
            List.of("agent 127.0.0.1:1: describe: agent unreachable (Connection refused)"),
            Instant.parse("2026-11-30T13:46:08.5Z"));
    Element suite = only(parsed(failed).getDocumentElement(), "testsuite");
    assertThat(suite.getAttribute("timestamp")).isEqualTo("2026-11-30T13:46:08");
    Element error = only(only(suite, "testcase"), "error");
    assertThat(error.getAttribute("message"))
        .isEqualTo(
            "the run failed: agent 127.0.0.1:1: describe: agent unreachable (Connection refused)");
  }

  @Test
  void aRunThatFailedBeforeItHadARecordStillNamesEveryExpectation() throws Exception {
    PlanFigures plan = PlanFigures.of(RUN);
    String xml =
        JUnitXml.ofFailure(
            "seed1",
            List.of(
                ExpectationParser.parse("efficiency", ">= 0.8", plan),
                ExpectationParser.parse("p99", "<= 20ms", plan)),
            List.of("agent a:1: describe: agent unreachable", "agent b:1: describe: timed out"),
            Instant.EPOCH);
    Element suite = only(parsed(xml).getDocumentElement(), "testsuite");
    assertThat(elements(suite, "testcase"))
        .extracting(c -> c.getAttribute("name"))
        .containsExactly("efficiency >= 0.80", "p99 <= 20 ms");
    assertThat(elements(suite, "error"))
        .extracting(e -> e.getAttribute("message"))
        .containsExactly(
            "expect efficiency >= 0.80: not judged: the run failed: agent a:1: describe: agent"
                + " unreachable and 1 more",
            "expect p99 <= 20 ms: not judged: the run failed: agent a:1: describe: agent"
                + " unreachable and 1 more");
  }

  @Test
  void markupAndCharactersXmlCannotCarryAreWrittenSafely() throws Exception {
    String hostile = "<x a=\"&amp;\"> ]]> \u0000\u001b[2J\uffff \ud83d\ude00 \ud800";
    String xml = JUnitXml.ofFailure("a<b>&\"c", List.of(), List.of(hostile), Instant.EPOCH);
    Element suite = only(parsed(xml).getDocumentElement(), "testsuite");
    assertThat(suite.getAttribute("name")).isEqualTo("a<b>&\"c");
    Element error = only(suite, "error");
    assertThat(error.getTextContent())
        .isEqualTo("<x a=\"&amp;\"> ]]> \\u0000\\u001b[2J\\uffff \ud83d\ude00 \\ud800");
    assertThat(error.getAttribute("message")).startsWith("the run failed: <x a=\"&amp;\">");
  }
}

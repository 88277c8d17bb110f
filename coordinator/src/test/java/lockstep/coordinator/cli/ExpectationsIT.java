package lockstep.coordinator.cli;

import static lockstep.coordinator.expect.XmlElements.elements;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import lockstep.coordinator.it.Cli;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * Expectations end to end against two real agent processes on loopback: a lock-files run with one
 * expectation from the scenario that holds (start skew within 10 s) and one from the command line
 * that breaks (an efficiency of 100x); exit 3, the broken line with its measured figure, both
 * outcomes in run.json and the JUnit file, then the saved run judged again by {@code report}.
 */
class ExpectationsIT extends TwoLocalAgents {
  private static Document xml(Path file) throws Exception {
    return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file.toFile());
  }

  @Test
  void oneExpectationHoldsOneBreaksAndTheRunExits3() throws Exception {
    Path scenario =
        Files.writeString(
            tmp.resolve("it-expect.yaml"),
            "name: it-expect\n"
                + "plan: [solo, all]\n"
                + "start-lead: 1s\n"
                + "expect: {skew: \"<= 10s\"}\n"
                + "workload: {type: lock-files, processes: 2, files: 100, lock: fcntl}\n");
    Path results = tmp.resolve("results");
    Path junit = tmp.resolve("lockstep-junit.xml");
    Cli run =
        Cli.run(
            Cli.runArgs(
                scenario,
                agents.addresses(),
                results,
                "--expect",
                "efficiency=>= 100",
                "--junit",
                junit.toString()));

    assertThat(run.exitCode()).as(run.err()).isEqualTo(LockstepCli.EXIT_EXPECTATION_BROKEN);
    // a figure below 0.1 is shown to three significant digits (0.0928), above with two decimals
    String broken =
        "expect efficiency >= 100.00: measured \\d+\\.\\d{2,} \\(lowest node[12] \\d+\\.\\d{2,}\\)";
    assertThat(run.err().lines().toList())
        .singleElement()
        .asString()
        .matches("lockstep: " + broken);
    assertThat(run.out())
        .contains("Expectations: 1 of 2 held, 1 broken")
        .containsPattern(
            "  held    expect skew <= 10 s: measured \\d+\\.\\d+ s \\(node[12] in step ")
        .containsPattern("  BROKEN  " + broken);

    Path runJson = Cli.runJson(results);
    JsonNode record = new ObjectMapper().readTree(runJson.toFile());
    assertThat(record.get("status").asText()).isEqualTo("ok");
    JsonNode expectations = record.get("expectations");
    assertThat(expectations).hasSize(2);
    JsonNode skew = expectations.get(0);
    assertThat(skew.get("figure").asText()).isEqualTo("skew");
    assertThat(skew.get("expression").asText()).isEqualTo("<= 10s");
    assertThat(skew.get("status").asText()).isEqualTo("held");
    assertThat(skew.get("unit").asText()).isEqualTo("ms");
    assertThat(skew.get("bound").asDouble()).isEqualTo(10_000);
    assertThat(skew.get("measured").asDouble())
        .isEqualTo(record.at("/analysis/maxAbsSkewMillis").asDouble());
    JsonNode eff = expectations.get(1);
    assertThat(eff.get("figure").asText()).isEqualTo("efficiency");
    assertThat(eff.get("status").asText()).isEqualTo("broken");
    assertThat(eff.get("measured").asDouble())
        .isEqualTo(record.at("/analysis/aggregateEfficiency").asDouble())
        .isPositive()
        .isLessThan(100);
    assertThat(run.err()).contains(eff.get("message").asText());

    System.out.println("--junit " + junit + ":\n" + Files.readString(junit));
    Document doc = xml(junit);
    Element suite = elements(doc, "testsuite").get(0);
    assertThat(suite.getAttribute("name")).isEqualTo("it-expect");
    assertThat(suite.getAttribute("tests")).isEqualTo("2");
    assertThat(suite.getAttribute("failures")).isEqualTo("1");
    assertThat(suite.getAttribute("errors")).isEqualTo("0");
    assertThat(elements(doc, "testcase"))
        .extracting(c -> c.getAttribute("name"))
        .containsExactly("skew <= 10 s", "efficiency >= 100.00");
    assertThat(elements(doc, "failure"))
        .singleElement()
        .satisfies(
            f -> assertThat(f.getAttribute("message")).isEqualTo(eff.get("message").asText()));
    assertThat(elements(doc, "property"))
        .anySatisfy(
            p -> assertThat(p.getAttribute("value")).isEqualTo(record.get("runId").asText()));

    // judged again after the fact: the recorded skew expectation and a looser efficiency
    Path again = tmp.resolve("again.xml");
    Cli report = Cli.report(runJson, "--expect", "efficiency>=0.01", "--junit", again.toString());
    assertThat(report.exitCode()).as(report.err()).isZero();
    assertThat(report.out()).contains("Expectations: all 2 held");
    Document judged = xml(again);
    assertThat(elements(judged, "testcase"))
        .extracting(c -> c.getAttribute("name"))
        .containsExactly("skew <= 10 s", "efficiency >= 0.01");
    assertThat(elements(judged, "failure")).isEmpty();
    Cli strict = Cli.report(runJson, "--expect", "skew<=1us");
    assertThat(strict.exitCode()).isEqualTo(3);
    assertThat(strict.err())
        .matches(Pattern.compile("lockstep: expect skew <= 1 us: measured \\d+.*", Pattern.DOTALL));
  }
}

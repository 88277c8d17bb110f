package lockstep.coordinator.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lockstep.common.ListeningLine;
import lockstep.coordinator.launch.AgentJar;
import lockstep.testsupport.Required;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 19 goal 3: a real Prometheus server (Debian's {@code prometheus}, on 127.0.0.1, its port
 * chosen by itself and read from its "Listening on" log line) scrapes a real agent process started
 * with {@code --metrics 127.0.0.1:0} every second while a coordinator process runs a scenario on
 * it; the series are read back through Prometheus's HTTP API ({@code /api/v1/query}): the run's
 * operations counter rose during the run under the run's id, its state was {@code running}, and the
 * latency histogram holds the run's operations once it ended.
 */
class PrometheusIT {
  private static final Pattern LISTENING_ON =
      Pattern.compile("msg=\"Listening on\" address=127\\.0\\.0\\.1:(\\d+)");
  private static final Pattern METRICS_LINE =
      Pattern.compile("lockstep-agent metrics on http://127\\.0\\.0\\.1:(\\d+)/metrics");
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;
  private final List<Process> processes = new ArrayList<>();
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  @AfterEach
  void stop() throws InterruptedException {
    for (Process p : processes) {
      p.destroy();
      if (!p.waitFor(10, TimeUnit.SECONDS)) {
        p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    }
  }

  record Agent(String address, int metricsPort) {}

  /** An agent process on 127.0.0.1:0 with --metrics 127.0.0.1:0; both ports read from stdout. */
  private Agent startAgent() throws Exception {
    Path root = Files.createDirectories(tmp.resolve("root"));
    Process p =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UseSerialGC",
                "-jar",
                AgentJar.locate().path().toString(),
                "--listen",
                "127.0.0.1:0",
                "--root",
                root.toString(),
                "--name",
                "prom1",
                "--metrics",
                "127.0.0.1:0")
            .redirectError(tmp.resolve("agent.err").toFile())
            .start();
    processes.add(p);
    CompletableFuture<Agent> started = new CompletableFuture<>();
    Thread reader =
        new Thread(
            () -> {
              String address = null;
              try (BufferedReader r =
                  new BufferedReader(
                      new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                  System.out.println("agent: " + line);
                  var bound = ListeningLine.parse(line);
                  if (bound.isPresent()) {
                    address = bound.get().address();
                  }
                  Matcher m = METRICS_LINE.matcher(line);
                  if (m.find() && address != null) {
                    started.complete(new Agent(address, Integer.parseInt(m.group(1))));
                  }
                }
              } catch (IOException ignored) {
                // process gone
              }
              started.completeExceptionally(new IOException("agent exited before serving metrics"));
            },
            "prom-agent-stdout");
    reader.setDaemon(true);
    reader.start();
    return started.get(60, TimeUnit.SECONDS);
  }

  /**
   * Prometheus on 127.0.0.1:0 (it picks the port and logs it), scraping only {@code target} every
   * second, its database in the test's temporary directory.
   */
  private int startPrometheus(Path binary, int targetPort) throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("prometheus"));
    Path config =
        Files.writeString(
            dir.resolve("prometheus.yml"),
            """
            global:
              scrape_interval: 1s
              scrape_timeout: 900ms
              evaluation_interval: 1s
            scrape_configs:
              - job_name: lockstep-agent
                static_configs:
                  - targets: ['127.0.0.1:%d']
            """
                .formatted(targetPort));
    Path log = dir.resolve("prometheus.log");
    Process p =
        new ProcessBuilder(
                binary.toString(),
                "--config.file=" + config,
                "--web.listen-address=127.0.0.1:0",
                "--storage.tsdb.path=" + dir.resolve("data"),
                "--storage.tsdb.retention.time=1h")
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    processes.add(p);
    return polled("Prometheus logs the port it listens on", 60)
        .until(
            () -> {
              assertThat(p.isAlive()).as("prometheus exited: " + Files.readString(log)).isTrue();
              Matcher m = LISTENING_ON.matcher(Files.readString(log));
              return m.find() ? Integer.parseInt(m.group(1)) : 0;
            },
            port -> port > 0);
  }

  /** Waiting for {@code what}, asked every 250 ms, for {@code seconds} at the most. */
  private static ConditionFactory polled(String what, int seconds) {
    return await(what).atMost(Duration.ofSeconds(seconds)).pollInterval(Duration.ofMillis(250));
  }

  /** {@code /api/v1/query?query=Q}: the result vector. */
  private JsonNode query(int prometheusPort, String promql) throws Exception {
    URI uri =
        URI.create(
            "http://127.0.0.1:"
                + prometheusPort
                + "/api/v1/query?query="
                + URLEncoder.encode(promql, StandardCharsets.UTF_8));
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
            HttpResponse.BodyHandlers.ofString());
    JsonNode body = JSON.readTree(r.body());
    assertThat(body.path("status").asText()).as(r.body()).isEqualTo("success");
    return body.path("data").path("result");
  }

  /** The value of the series of {@code promql} whose {@code run_id} starts with {@code run}. */
  private Optional<Double> valueFor(int prometheusPort, String promql, String runPrefix)
      throws Exception {
    for (JsonNode series : query(prometheusPort, promql)) {
      String id = series.path("metric").path("run_id").asText("");
      if (id.contains(runPrefix)) {
        return Optional.of(Double.parseDouble(series.path("value").get(1).asText()));
      }
    }
    return Optional.empty();
  }

  @Test
  void aRealPrometheusScrapesTheRunInProgressAndReadsItBack() throws Exception {
    Path prometheus = Required.program("prometheus", "prometheus");
    long began = System.nanoTime();
    Agent agent = startAgent();
    int prom = startPrometheus(prometheus, agent.metricsPort());
    polled("Prometheus scraped the agent once", 30)
        .until(() -> query(prom, "up{job=\"lockstep-agent\"} == 1").size() == 1);

    Path scenario =
        Files.writeString(
            tmp.resolve("prom-it.yaml"),
            """
            name: prom-it
            plan: [all]
            workload: {type: hot-lock, file: hot.dat, processes: 2, lock: fcntl, duration: 8s}
            """);
    Path results = tmp.resolve("results");
    Coordinator coordinator =
        Coordinator.start(
            tmp.resolve("coordinator"), Cli.runArgs(scenario, List.of(agent.address()), results));
    processes.add(coordinator.process());

    String ops = "lockstep_run_operations_total";
    double first =
        polled("Prometheus has the running run's operations under its run id", 60)
            .until(
                () -> {
                  Optional<Double> v = valueFor(prom, ops, "-prom-it-");
                  Optional<Double> running =
                      valueFor(
                          prom, "lockstep_run_state{lockstep_run_state=\"running\"}", "-prom-it-");
                  return running.orElse(0.0) == 1.0 ? v.orElse(0.0) : 0.0;
                },
                v -> v > 0);
    polled("the operations counter rose in a later scrape of the same run", 20)
        .until(() -> valueFor(prom, ops, "-prom-it-").orElse(0.0) > first);

    assertThat(coordinator.process().waitFor(90, TimeUnit.SECONDS)).isTrue();
    assertThat(coordinator.process().exitValue()).as(coordinator.err()).isZero();
    String runId = JSON.readTree(Cli.runJson(results).toFile()).path("runId").asText();
    assertThat(runId).contains("-prom-it-");
    // the series Prometheus stored carry exactly the id of the run the coordinator saved
    JsonNode series = query(prom, "max_over_time(" + ops + "[5m])");
    assertThat(series.findValuesAsText("run_id")).contains(runId + ".all");
    polled("the ended run's latency histogram was scraped", 20)
        .until(
            () -> {
              JsonNode count =
                  query(prom, "lockstep_operation_latency_seconds_count{workload=\"hot-lock\"}");
              return count.size() == 1 && count.get(0).path("value").get(1).asDouble() > 0;
            });
    JsonNode cpu = query(prom, "lockstep_node_cpu_seconds_total{mode=\"user\"}");
    assertThat(cpu).hasSize(1);
    // what a scrape costs the agent, as Prometheus timed it (the whole HTTP exchange)
    String d = "scrape_duration_seconds{job=\"lockstep-agent\"}[5m]";
    double avg = query(prom, "avg_over_time(" + d + ")").get(0).path("value").get(1).asDouble();
    double max = query(prom, "max_over_time(" + d + ")").get(0).path("value").get(1).asDouble();
    double samples =
        query(prom, "max_over_time(scrape_samples_scraped{job=\"lockstep-agent\"}[5m])")
            .get(0)
            .path("value")
            .get(1)
            .asDouble();
    System.out.printf(
        Locale.ROOT,
        "PrometheusIT: %.1f s in all; first scrape of the run showed %.0f operations; scrape"
            + " duration avg %.2f ms, max %.2f ms, up to %.0f samples%n",
        (System.nanoTime() - began) / 1e9,
        first,
        avg * 1e3,
        max * 1e3,
        samples);
  }
}

package lockstep.coordinator.it;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import lockstep.testsupport.Required;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;

/**
 * The Debian chromium driven through its own chromedriver (no browser download, no network): opens
 * a local file and reports the browser console's errors.
 */
final class Chromium implements AutoCloseable {
  static final Path BROWSER = Path.of("/usr/bin/chromium");
  static final Path DRIVER = Path.of("/usr/bin/chromedriver");

  private final ChromeDriver driver;
  private final Path profile;

  private Chromium(ChromeDriver driver, Path profile) {
    this.driver = driver;
    this.profile = profile;
  }

  /** Skips the test (or fails it under CI=true) when chromium or chromedriver is missing. */
  static void assumeInstalled() {
    Required.program(BROWSER.toString(), "chromium");
    Required.program(DRIVER.toString(), "chromium-driver");
  }

  static Chromium start() throws IOException {
    Path profile = Files.createTempDirectory("lockstep-chromium-");
    ChromeOptions options = new ChromeOptions();
    options.setBinary(BROWSER.toFile());
    options.addArguments(
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-dev-shm-usage",
        "--window-size=1280,1600",
        "--user-data-dir=" + profile);
    options.setCapability("goog:loggingPrefs", Map.of(LogType.BROWSER, "ALL"));
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(new File(DRIVER.toString()))
            .withLogOutput(java.io.OutputStream.nullOutputStream())
            .build();
    ChromeDriver driver = new ChromeDriver(service, options);
    driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(60));
    return new Chromium(driver, profile);
  }

  ChromeDriver open(Path file) {
    driver.get(file.toUri().toString());
    return driver;
  }

  /** Console messages at SEVERE level (errors, uncaught exceptions) since the last call. */
  List<String> consoleErrors() {
    return driver.manage().logs().get(LogType.BROWSER).getAll().stream()
        .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue())
        .map(LogEntry::getMessage)
        .toList();
  }

  @Override
  public void close() throws IOException {
    try {
      driver.quit();
    } finally {
      try (var walk = Files.walk(profile)) {
        walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }
}

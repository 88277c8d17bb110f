package lockstep.testsupport;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.opentest4j.TestAbortedException;

/**
 * The one rule for a test that needs something from the machine (a program, root, a Docker engine,
 * GlusterFS mounts): when it is missing, the test fails under {@code CI=true} (CI installs
 * everything, so a skip there would hide a test that never ran) and is skipped with one line saying
 * why everywhere else.
 */
public final class Required {
  private Required() {}

  public static boolean ci() {
    return "true".equals(System.getenv("CI"));
  }

  /** Fails (CI) or skips (elsewhere) the calling test because {@code what} is missing. */
  public static void missing(String what) {
    if (ci()) {
      Assertions.fail("CI=true and " + what);
    }
    System.err.println("skipped: " + what);
    Assumptions.abort("skipped: " + what);
  }

  /** Checks that may skip, run once for a whole class. */
  public interface Check {
    void run() throws Exception;
  }

  /**
   * For a class that checks the machine once ({@code @BeforeAll}): a skip there would make the
   * report count a class with no tests, so {@link #checkOnce} keeps the reason and, registered as
   * the class's extension ({@code @RegisterExtension static final Required.Gate MACHINE}), the gate
   * skips every test with it before its {@code @BeforeEach} methods: each one counted as skipped.
   * Under {@code CI=true} a missing need still fails in {@code @BeforeAll}.
   */
  public static final class Gate implements BeforeEachCallback {
    private String missing;

    /**
     * Runs {@code check}; returns whether everything it needs is there (false: the class is
     * skipped).
     */
    public boolean checkOnce(Check check) throws Exception {
      try {
        check.run();
        return true;
      } catch (TestAbortedException e) {
        missing = e.getMessage();
        return false;
      }
    }

    @Override
    public void beforeEach(ExtensionContext context) {
      if (missing != null) {
        Assumptions.abort(missing);
      }
    }
  }

  /** {@link #missing(String)} unless {@code present}. */
  public static void that(boolean present, String what) {
    if (!present) {
      missing(what);
    }
  }

  /** The program on the PATH (or at an absolute path), from the named Debian package. */
  public static Path program(String name, String debianPackage) {
    if (name.startsWith("/")) {
      that(
          Files.isExecutable(Path.of(name)),
          name + " is not installed (Debian package " + debianPackage + ")");
      return Path.of(name);
    }
    for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
      Path p = Path.of(dir, name);
      if (Files.isExecutable(p)) {
        return p;
      }
    }
    missing(name + " is not on the PATH (Debian package " + debianPackage + ")");
    return null;
  }

  /** The test runs as root (mounts, capabilities, lowered limits). */
  public static void root(String why) {
    that("root".equals(System.getProperty("user.name")), why + " needs root");
  }
}

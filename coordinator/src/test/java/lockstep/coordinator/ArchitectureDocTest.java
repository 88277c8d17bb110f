package lockstep.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * docs/architecture.md stays true to the code: every class it names in backticks ({@code
 * `StepRunner`}, {@code `run/StepRunner`}), every {@code `Class.member`}, and every package path in
 * its diagrams ({@code cli/LockstepCli}) must be found in the sources (Java, or the proto files for
 * messages, services and their fields).
 */
class ArchitectureDocTest {
  private static final Path TOP = top();

  /** `Name`, `pkg/Name`, `Name.member`, `pkg/Name.member()`: a class-like first letter. */
  private static final Pattern CODE_NAME =
      Pattern.compile(
          "^((?:[a-z][a-z0-9]*/)*)([A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*)(?:\\.(\\w+))?(\\(\\))?$");

  /** pkg/Name(.member) anywhere (the diagrams name classes by their package path). */
  private static final Pattern PACKAGE_PATH =
      Pattern.compile("(?<![\\w/.-])((?:[a-z][a-z0-9]*/)+)([A-Z][A-Za-z0-9]*)(?:\\.([a-z]\\w*))?");

  private static final Pattern BACKTICKS = Pattern.compile("`([^`\\n]+)`");

  /** Simple class name -> its sources (a nested class maps to the file that holds it). */
  private static final Map<String, List<Path>> SOURCES = new HashMap<>();

  @BeforeAll
  static void readSources() throws IOException {
    try (Stream<Path> files = Files.walk(TOP)) {
      files
          .filter(p -> !p.toString().contains("/target/") && !p.toString().contains("/.git/"))
          .filter(p -> p.toString().contains("/src/"))
          .filter(p -> p.toString().endsWith(".java") || p.toString().endsWith(".proto"))
          .forEach(ArchitectureDocTest::index);
    }
  }

  private static void index(Path file) {
    String text = read(file);
    Matcher m =
        Pattern.compile("\\b(?:class|record|enum|interface|message|service|rpc)\\s+([A-Z]\\w*)")
            .matcher(text);
    while (m.find()) {
      SOURCES.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(file);
    }
  }

  @Test
  void everyClassAndMemberTheArchitecturePageNamesExists() {
    String doc = read(TOP.resolve("docs/architecture.md"));
    Set<String> missing = new LinkedHashSet<>();
    Matcher b = BACKTICKS.matcher(doc);
    while (b.find()) {
      Matcher n = CODE_NAME.matcher(b.group(1).trim());
      if (n.matches()) {
        check(n.group(1), n.group(2), n.group(3), missing, "`" + b.group(1) + "`");
      }
    }
    Matcher p = PACKAGE_PATH.matcher(doc);
    while (p.find()) {
      check(p.group(1), p.group(2), p.group(3), missing, p.group());
    }
    assertThat(missing).as("names in docs/architecture.md that the code does not have").isEmpty();
  }

  @Test
  void theCheckFindsANameThatIsNotThere() {
    Set<String> missing = new LinkedHashSet<>();
    check("fs/", "Posix", "lock", missing, "fs/Posix.lock");
    check("", "StepRunner", null, missing, "StepRunner");
    check("run/", "StepRunner", null, missing, "run/StepRunner");
    check("agent/", "StepRunner", null, missing, "agent/StepRunner");
    assertThat(missing).containsExactly("fs/Posix.lock", "agent/StepRunner");
  }

  private static void check(
      String packagePath, String name, String member, Set<String> missing, String as) {
    List<Path> files = SOURCES.getOrDefault(name, List.of());
    if (files.isEmpty() && packagePath.isEmpty()) {
      Class<?> library = library(name);
      if (library != null) {
        if (member != null && !hasMember(library, member)) {
          missing.add(as);
        }
        return;
      }
    }
    if (!packagePath.isEmpty()) {
      String dir = "/" + packagePath.substring(0, packagePath.length() - 1);
      files = files.stream().filter(f -> f.getParent().toString().endsWith(dir)).toList();
    }
    if (files.isEmpty()) {
      missing.add(as);
      return;
    }
    if (member != null && files.stream().noneMatch(f -> declares(code(read(f)), member))) {
      missing.add(as);
    }
  }

  /** A method, field, constant, enum constant, record component, RPC or proto field of it. */
  private static boolean declares(String source, String member) {
    String m = Pattern.quote(member);
    return Pattern.compile("\\b" + m + "\\s*\\(").matcher(source).find()
        || Pattern.compile("\\b" + m + "\\s*(=|;|,|\\))").matcher(source).find()
        || Pattern.compile("^\\s*" + m + "\\b", Pattern.MULTILINE).matcher(source).find()
        || Pattern.compile("\\b(rpc|oneof)\\s+" + m + "\\b").matcher(source).find();
  }

  /** A class of the JDK or gRPC the page names by its simple name (`Status`, `Instant.now()`). */
  private static Class<?> library(String name) {
    for (String pkg : List.of("java.lang.", "java.time.", "java.util.", "io.grpc.")) {
      try {
        return Class.forName(pkg + name);
      } catch (ClassNotFoundException e) {
        // not in this package
      }
    }
    return null;
  }

  private static boolean hasMember(Class<?> c, String member) {
    return Stream.of(c.getMethods()).anyMatch(m -> m.getName().equals(member))
        || Stream.of(c.getFields()).anyMatch(f -> f.getName().equals(member));
  }

  /** The source without its comments (a member named only in a comment is not there). */
  private static String code(String source) {
    return source.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("//[^\n]*", " ");
  }

  private static String read(Path p) {
    try {
      return Files.readString(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Path top() {
    Path p = Path.of("").toAbsolutePath();
    while (p != null && !Files.exists(p.resolve("docs/architecture.md"))) {
      p = p.getParent();
    }
    if (p == null) {
      throw new IllegalStateException(
          "no docs/architecture.md above " + Path.of("").toAbsolutePath());
    }
    return p;
  }
}

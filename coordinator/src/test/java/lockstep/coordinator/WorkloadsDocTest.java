package lockstep.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lockstep.common.WorkloadField;
import lockstep.common.WorkloadKind;
import org.junit.jupiter.api.Test;

/**
 * docs/workloads.md stays true to {@link WorkloadKind}: every type has its section ({@code ##
 * NAME}), and each section names every field of its type in backticks.
 */
class WorkloadsDocTest {
  @Test
  void everyTypeHasASectionThatNamesEachOfItsFields() throws IOException {
    Path top = Path.of("").toAbsolutePath();
    while (!Files.exists(top.resolve("docs/workloads.md"))) {
      top = top.getParent();
    }
    String doc = Files.readString(top.resolve("docs/workloads.md"));
    List<String> missing = new ArrayList<>();
    for (WorkloadKind<?> k : WorkloadKind.ALL) {
      Matcher m =
          Pattern.compile("(?ms)^## " + Pattern.quote(k.name()) + "\\b.*?(?=^## |\\z)")
              .matcher(doc);
      if (!m.find()) {
        missing.add("section ## " + k.name());
        continue;
      }
      String section = m.group();
      for (WorkloadField f : k.fields()) {
        if (!section.contains("`" + f.yamlName() + "`")) {
          missing.add(k.name() + "." + f.yamlName());
        }
      }
    }
    assertThat(missing).as("what docs/workloads.md does not describe").isEmpty();
  }
}

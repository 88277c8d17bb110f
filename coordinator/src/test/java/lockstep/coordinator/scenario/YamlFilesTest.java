package lockstep.coordinator.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import lockstep.coordinator.it.Cli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 19 goal 5: a scenario file that cannot be read, or is not UTF-8, is one line naming the
 * file, the cause and what fixes it; exit 2, no stack trace, nothing left behind.
 */
class YamlFilesTest {
  @TempDir Path tmp;

  private String refused(Path scenario) {
    Path out = tmp.resolve("results");
    Cli cli =
        Cli.run("run", scenario.toString(), "--agents", "127.0.0.1:1", "--out", out.toString());
    assertThat(cli.exitCode()).isEqualTo(2);
    assertThat(cli.err().lines()).as(cli.err()).hasSize(1);
    assertThat(cli.err()).doesNotContain("Exception", "\tat ", "Input length");
    assertThat(out).doesNotExist();
    return cli.err().strip();
  }

  @Test
  void aLatin1ScenarioNamesTheByteItsLineAndTheFix() throws Exception {
    Path s = tmp.resolve("latin1.yaml");
    Files.write(s, "name: caf\u00e9\nplan: [all]\n".getBytes(StandardCharsets.ISO_8859_1));
    assertThat(refused(s))
        .isEqualTo(
            "lockstep: scenario "
                + s
                + ": not UTF-8 text: byte 0xe9 at offset 9 (line 1) is not valid UTF-8; save the"
                + " file as UTF-8 (e.g. iconv -f LATIN1 -t UTF-8), or check that it is the"
                + " scenario you meant");
  }

  @Test
  void binaryGarbageOnALaterLineIsNamedToo() throws Exception {
    Path s = tmp.resolve("garbage.yaml");
    Files.write(s, new byte[] {'a', ':', ' ', '1', '\n', (byte) 0xff, (byte) 0xfe, 0});
    assertThat(refused(s)).contains("byte 0xff at offset 5 (line 2)");
  }

  @Test
  void aDirectoryIsNotAScenario() throws Exception {
    Path d = Files.createDirectory(tmp.resolve("dir.yaml"));
    assertThat(refused(d))
        .isEqualTo(
            "lockstep: scenario " + d + ": is a directory; give the path of a scenario YAML file");
  }

  @Test
  void anUnreadableFileSaysPermissionDeniedAndHowToFixIt() {
    // tests run as root, who reads any file: the mapping is checked on the exception itself
    Path s = tmp.resolve("secret.yaml");
    assertThat(YamlFiles.readError(s, "scenario", new AccessDeniedException(s.toString())))
        .isEqualTo(
            "scenario "
                + s
                + ": permission denied: this user cannot read it; make it readable (chmod o+r, or"
                + " run as its owner) or give a copy you can read");
  }

  @Test
  void utf8WithAByteOrderMarkStillParses() throws Exception {
    Path s = tmp.resolve("bom.yaml");
    Files.write(s, "\uFEFFname: x\n".getBytes(StandardCharsets.UTF_8));
    assertThat(YamlFiles.read(s, "scenario")).isEqualTo("name: x\n");
  }
}

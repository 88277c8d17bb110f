package lockstep.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import lockstep.common.Credentials.CredentialsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The rules agent and coordinator both hold their credentials to. */
class CredentialsTest {
  @TempDir Path dir;

  @Test
  void certificateAndKeyGoTogether() {
    assertThatThrownBy(() -> new Credentials(dir.resolve("c.pem"), null, null).check())
        .isInstanceOf(CredentialsException.class)
        .hasMessage("--tls-cert and --tls-key go together (give both or neither)");
    assertThatThrownBy(() -> new Credentials(null, dir.resolve("k.pem"), null).check())
        .hasMessageContaining("go together");
  }

  @Test
  void everyFileGivenMustBeReadable() throws Exception {
    Path cert = Files.writeString(dir.resolve("c.pem"), "x");
    Path key = Files.writeString(dir.resolve("k.pem"), "x");
    new Credentials(cert, key, null).check();
    assertThatThrownBy(() -> new Credentials(cert, dir.resolve("gone.pem"), null).check())
        .hasMessage("--tls-key: " + dir.resolve("gone.pem") + " is not a readable file");
    assertThatThrownBy(() -> new Credentials(null, null, dir.resolve("t")).check())
        .hasMessageStartingWith("--token-file: ");
  }

  @Test
  void theTokenFileWinsOverTheEnvironmentAndIsStripped() throws Exception {
    Path file = Files.writeString(dir.resolve("t"), "  0123456789abcdef0123\n");
    assertThat(new Credentials(null, null, file).token("fromtheenvironment0000"))
        .isEqualTo("0123456789abcdef0123");
    assertThat(Credentials.NONE.token(" fromtheenvironment0000 "))
        .isEqualTo("fromtheenvironment0000");
    assertThat(Credentials.NONE.token("  ")).isNull();
    assertThat(Credentials.NONE.token(null)).isNull();
  }

  @Test
  void shortEmptyOrUnprintableTokensAreRefusedNamingWhereTheyCameFrom() throws Exception {
    Path empty = Files.writeString(dir.resolve("empty"), "\n");
    assertThatThrownBy(() -> new Credentials(null, null, empty).token(null))
        .hasMessage(
            "--token-file "
                + empty
                + ": the token has 0 characters; use at least 16 (e.g. openssl rand -hex 32)");
    assertThatThrownBy(() -> Credentials.NONE.token("short"))
        .hasMessageStartingWith("LOCKSTEP_TOKEN: the token has 5 characters");
    assertThatThrownBy(() -> Credentials.NONE.token("0123456789 abcdef"))
        .hasMessage("LOCKSTEP_TOKEN: the token must be printable ASCII without spaces");
  }

  @Test
  void whatIsNotGivenComesFromTheFallback() {
    Credentials cli = new Credentials(Path.of("/cli.pem"), null, null);
    Credentials inventory = new Credentials(Path.of("/inv.pem"), Path.of("/inv-key.pem"), null);
    assertThat(cli.orElse(inventory))
        .isEqualTo(new Credentials(Path.of("/cli.pem"), Path.of("/inv-key.pem"), null));
    assertThat(Credentials.NONE.orElse(Credentials.NONE)).isEqualTo(Credentials.NONE);
  }
}

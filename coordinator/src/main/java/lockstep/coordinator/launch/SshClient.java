package lockstep.coordinator.launch;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The system's OpenSSH client ({@code ssh}, {@code scp}): honours ~/.ssh/config (or {@code -F
 * FILE}), never asks for a password (BatchMode), and every call is bounded.
 */
public final class SshClient {
  /** Exit status and output of one remote command. */
  public record Result(int exitCode, String stdout, String stderr) {
    public boolean ok() {
      return exitCode == 0;
    }

    /** The last non-empty line of stderr, else of stdout: what a user needs to see. */
    public String lastLine() {
      for (String text : List.of(stderr, stdout)) {
        List<String> lines = text.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        if (!lines.isEmpty()) {
          return lines.get(lines.size() - 1);
        }
      }
      return "exit status " + exitCode;
    }
  }

  private final Path configFile;
  private final int connectTimeoutSeconds;

  /**
   * @param configFile passed as {@code -F}; null for ssh's own (~/.ssh/config)
   */
  public SshClient(Path configFile, int connectTimeoutSeconds) {
    this.configFile = configFile;
    this.connectTimeoutSeconds = connectTimeoutSeconds;
  }

  /**
   * The ssh-keygen call that writes a new ed25519 key pair without a passphrase to {@code key} (and
   * {@code key}.pub), {@code comment} in the public key.
   */
  public static List<String> keygenCommand(Path key, String comment) {
    return List.of(
        "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", key.toString());
  }

  private List<String> common(String program) {
    List<String> cmd = new ArrayList<>(List.of(program));
    if (configFile != null) {
      cmd.addAll(List.of("-F", configFile.toString()));
    }
    cmd.addAll(List.of("-o", "BatchMode=yes", "-o", "ConnectTimeout=" + connectTimeoutSeconds));
    return cmd;
  }

  /**
   * Runs a POSIX sh script on the target (fed on stdin to {@code sh -s}, so the login shell does
   * not matter).
   */
  public Result runScript(SshTarget target, String script, Duration timeout) {
    List<String> cmd = common("ssh");
    cmd.addAll(List.of("-T", "--", target.spec(), "sh -s"));
    return run(cmd, script, timeout, "ssh " + target);
  }

  /** Copies a local file to a path on the target (relative paths are under the remote home). */
  public Result copy(Path local, SshTarget target, String remotePath, Duration timeout) {
    List<String> cmd = common("scp");
    cmd.addAll(List.of("-q", "--", local.toString(), target.spec() + ":" + remotePath));
    return run(cmd, "", timeout, "scp to " + target);
  }

  /**
   * The host name ssh would connect to for the target, after its configuration ({@code ssh -G}).
   */
  public String resolveHost(SshTarget target) {
    List<String> cmd = common("ssh");
    cmd.addAll(List.of("-G", "--", target.spec()));
    Result r = run(cmd, "", Duration.ofSeconds(10), "ssh -G " + target);
    if (r.ok()) {
      for (String line : r.stdout().lines().toList()) {
        if (line.startsWith("hostname ")) {
          return line.substring("hostname ".length()).strip();
        }
      }
    }
    throw new LaunchException(
        target + ": cannot read the ssh configuration for it (ssh -G): " + r.lastLine());
  }

  private static Result run(List<String> cmd, String stdin, Duration timeout, String what) {
    Process p;
    try {
      p = new ProcessBuilder(cmd).start();
    } catch (IOException e) {
      throw new LaunchException(
          what + ": cannot run " + cmd.get(0) + " (is OpenSSH installed?): " + e.getMessage());
    }
    ChildOutput output = ChildOutput.feed(p, stdin);
    try {
      if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        throw new LaunchException(what + ": no answer within " + timeout.toSeconds() + " s");
      }
      return new Result(p.exitValue(), output.stdout(5), output.stderr(5));
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new LaunchException(what + ": interrupted");
    } catch (ExecutionException | TimeoutException e) {
      throw new LaunchException(what + ": cannot read its output: " + e.getMessage());
    }
  }
}

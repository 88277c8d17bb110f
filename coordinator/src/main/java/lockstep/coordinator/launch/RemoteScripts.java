package lockstep.coordinator.launch;

/**
 * The POSIX sh scripts run on a node over SSH. Files live in the remote directory, named after the
 * remote host name (homes may be shared between nodes): {@code agent-HOST-PORT.pid} and {@code
 * .log}. Output lines start with a keyword the launcher reads: PRESENT/ABSENT, OK, PID, LOG,
 * STOPPED, ERR.
 */
final class RemoteScripts {
  /** Seconds the start script waits for the agent's "listening on" line. */
  static final int START_WAIT_SECONDS = 60;

  /** Seconds the stop script waits for an agent to exit after SIGTERM before SIGKILL. */
  static final int STOP_WAIT_SECONDS = 20;

  private RemoteScripts() {}

  static String quote(String s) {
    return "'" + s.replace("'", "'\\''") + "'";
  }

  /**
   * Creates the directory and says whether the jar ({@code JAR PRESENT|ABSENT}) and the unpacked
   * tarball ({@code BUNDLE ...}; {@code bundle} may be empty) are already there, and which version
   * {@code java} is ({@code JAVA 17.0.15}, {@code JAVA none}).
   */
  static String probe(String dir, String jar, String bundle, String java) {
    return "dir="
        + quote(dir)
        + "\njar="
        + quote(jar)
        + "\nbundle="
        + quote(bundle)
        + "\njava="
        + quote(java)
        + "\n"
        + """
        mkdir -p "$dir" || { echo "ERR cannot create $dir"; exit 10; }
        if [ -f "$dir/$jar" ]; then echo "JAR PRESENT"; else echo "JAR ABSENT"; fi
        if [ -n "$bundle" ] && [ -x "$dir/$bundle/%s" ]; then echo "BUNDLE PRESENT"; else echo "BUNDLE ABSENT"; fi
        v=""
        if command -v "$java" >/dev/null 2>&1; then
          v="$("$java" -version 2>&1 | sed -n 's/.* version "\\([0-9][^"]*\\)".*/\\1/p' | head -n 1)"
        fi
        echo "JAVA ${v:-none}"
        """
            .formatted(AgentTarball.LAUNCHER);
  }

  /**
   * Starts the agent: from the jar with the node's java, or, with {@code bundle} (the unpacked
   * tarball's directory name), on the tarball's own runtime. {@code uploaded}: the jar or tarball
   * just copied (moved or unpacked into place first), or null.
   */
  static String start(LaunchSpec spec, String jar, String bundle, String uploaded) {
    StringBuilder s = new StringBuilder();
    s.append("dir=")
        .append(quote(spec.remoteDir()))
        .append('\n')
        .append("jar=")
        .append(quote(jar))
        .append('\n')
        .append("bundle=")
        .append(quote(bundle == null ? "" : bundle))
        .append('\n')
        .append("launcher=")
        .append(quote(AgentTarball.LAUNCHER))
        .append('\n')
        .append("uploaded=")
        .append(quote(uploaded == null ? "" : uploaded))
        .append('\n')
        .append("java=")
        .append(quote(spec.java()))
        .append('\n')
        .append("root=")
        .append(quote(spec.root()))
        .append('\n')
        .append("listen=")
        .append(quote(listen(spec)))
        .append('\n')
        .append("name=")
        .append(quote(spec.name() == null ? "" : spec.name()))
        .append('\n')
        .append("port=")
        .append(spec.port())
        .append('\n')
        .append("insecure=")
        .append(spec.insecure() ? 1 : 0)
        .append('\n')
        .append("wait=")
        .append(START_WAIT_SECONDS * 10)
        .append('\n');
    s.append(
        """
        set -u
        if [ -n "$bundle" ] && [ -n "$uploaded" ]; then
          # unpacked beside, then renamed: a bundle directory is complete or absent
          part="$dir/$bundle.part-$(hostname)-$$"
          rm -rf "$part"; mkdir -p "$part" || { echo "ERR cannot create $part"; exit 10; }
          if ! err="$(tar -xzf "$dir/$uploaded" -C "$part" --strip-components=1 2>&1)"; then
            rm -rf "$part" "$dir/$uploaded"
            echo "ERR cannot unpack the agent tarball in $dir: $(echo "$err" | grep -v '^ *$' | head -n 1)"; exit 10
          fi
          rm -f "$dir/$uploaded"
          if [ -d "$dir/$bundle" ]; then rm -rf "$part"; else mv "$part" "$dir/$bundle" || { echo "ERR cannot move the agent into $dir/$bundle"; exit 10; }; fi
        elif [ -n "$uploaded" ]; then
          mv -f "$dir/$uploaded" "$dir/$jar" || { echo "ERR cannot move the jar into $dir"; exit 10; }
        fi
        key="$(hostname)-$port"
        pidf="$dir/agent-$key.pid"
        log="$dir/agent-$key.log"
        if [ -f "$pidf" ] && kill -0 "$(cat "$pidf")" 2>/dev/null; then
          echo "ERR an agent started earlier is still running (pid $(cat "$pidf")); end it with: lockstep agents stop"
          exit 11
        fi
        if [ -n "$bundle" ]; then
          set -- "$dir/$bundle/$launcher"
          [ -x "$1" ] || { echo "ERR $1 is missing: not an agent tarball"; exit 12; }
        else
          command -v "$java" >/dev/null 2>&1 || { echo "ERR '$java' not found (PATH of a non-interactive ssh session: $PATH); give --java"; exit 12; }
          set -- "$java" -jar "$dir/$jar"
        fi
        set -- "$@" --listen "$listen" --root "$root"
        if [ -n "$name" ]; then set -- "$@" --name "$name"; fi
        if [ "$insecure" = 1 ]; then set -- "$@" --insecure; fi
        # emptied here, not by the background job's redirection, which may come after the first
        # grep below: that grep would then read an earlier agent's "listening on" line
        : >"$log"
        nohup "$@" >>"$log" 2>&1 </dev/null &
        pid=$!
        echo "$pid" >"$pidf"
        i=0
        while :; do
          if line="$(grep -m1 'listening on' "$log")"; then
            echo "PID $pid"; echo "LOG $log"; echo "OK $line"; exit 0
          fi
          if ! kill -0 "$pid" 2>/dev/null; then
            rm -f "$pidf"
            echo "ERR the agent exited at start: $(grep -v '^ *$' "$log" | head -n 1) (log $log)"
            exit 13
          fi
          i=$((i + 1))
          if [ "$i" -ge "$wait" ]; then
            kill "$pid" 2>/dev/null; rm -f "$pidf"
            echo "ERR the agent did not report listening within $((wait / 10)) s (log $log)"
            exit 14
          fi
          sleep 0.1
        done
        """);
    return s.toString();
  }

  /**
   * Ends every agent this directory's pid files name on this host (checking each pid is an agent).
   */
  static String stop(String dir) {
    return "dir="
        + quote(dir)
        + "\nwait="
        + STOP_WAIT_SECONDS * 10
        + "\n"
        + """
        set -u
        found=0
        for pidf in "$dir"/agent-"$(hostname)"-*.pid; do
          [ -f "$pidf" ] || continue
          found=1
          pid="$(cat "$pidf")"
          if ! kill -0 "$pid" 2>/dev/null || ! tr '\\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q 'lockstep-agent'; then
            rm -f "$pidf"; echo "GONE $pid"; continue
          fi
          kill -TERM "$pid"
          i=0
          while kill -0 "$pid" 2>/dev/null && [ "$i" -lt "$wait" ]; do sleep 0.1; i=$((i + 1)); done
          if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid"; echo "KILLED $pid"; else echo "STOPPED $pid"; fi
          rm -f "$pidf"
        done
        [ "$found" = 1 ] || echo "NONE"
        """;
  }

  private static String listen(LaunchSpec spec) {
    String host = spec.bindHost().contains(":") ? "[" + spec.bindHost() + "]" : spec.bindHost();
    return host + ":" + spec.port();
  }
}

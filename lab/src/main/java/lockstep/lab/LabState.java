package lockstep.lab;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a lab is (DIR/state.json), written as soon as each piece exists, so that {@code down} (or
 * the shutdown hook of a failed or interrupted {@code up}) finds everything to remove.
 *
 * @param cpus virtual CPUs per guest
 * @param nodeCount how many guests (node1..nodeN)
 * @param servers how many of them, the last ones, are servers ({@link LabNode.Role#SERVER})
 * @param namespace the network namespace holding every QEMU process
 * @param pids process ids by role (node1..nodeN, storage)
 * @param stacks stacks brought up (gfs2, ocfs2), in order
 * @param settings the lab's current settings (plock_rate_limit, plock_ownership, disk-mbps,
 *     localalloc)
 */
public record LabState(
    String namespace,
    String imageDir,
    String sshKey,
    String accel,
    String accelWhy,
    int memoryMib,
    int cpus,
    int nodeCount,
    int servers,
    Map<String, Long> pids,
    List<String> stacks,
    Map<String, String> settings,
    String bootedAt) {
  private static final ObjectMapper JSON =
      new ObjectMapper()
          .enable(SerializationFeature.INDENT_OUTPUT)
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  public LabState {
    cpus = Math.max(1, cpus); // state.json of a lab booted before --cpus existed
    nodeCount = nodeCount == 0 ? LabNode.MIN : nodeCount; // ... or before --nodes
    pids = Map.copyOf(pids);
    stacks = List.copyOf(stacks);
    settings = Map.copyOf(settings);
  }

  LabState withPid(String role, long pid) {
    Map<String, Long> p = new LinkedHashMap<>(pids);
    p.put(role, pid);
    return with(p, stacks, settings);
  }

  LabState withStack(Stack s) {
    List<String> st = new ArrayList<>(stacks);
    if (!st.contains(s.word())) {
      st.add(s.word());
    }
    return with(pids, st, settings);
  }

  LabState withSetting(String key, String value) {
    Map<String, String> m = new LinkedHashMap<>(settings);
    m.put(key, value);
    return with(pids, stacks, m);
  }

  private LabState with(
      Map<String, Long> newPids, List<String> newStacks, Map<String, String> newSettings) {
    return new LabState(
        namespace,
        imageDir,
        sshKey,
        accel,
        accelWhy,
        memoryMib,
        cpus,
        nodeCount,
        servers,
        newPids,
        newStacks,
        newSettings,
        bootedAt);
  }

  /** Every guest of the lab, servers included. */
  public List<LabNode> nodes() {
    return LabNode.of(nodeCount, servers);
  }

  /** The guests that mount the stacks and run their agents. */
  public List<LabNode> clients() {
    return LabNode.clients(nodes());
  }

  /** The node that serves NFS: the first server node. */
  public LabNode nfsServer() {
    return nodes().stream()
        .filter(n -> !n.client())
        .findFirst()
        .orElseThrow(
            () ->
                new LabException(
                    "nfs needs a server node, and this lab has none: lab down, then lab up nfs"
                        + " (the last node serves: --servers 1)"));
  }

  public LabNode node(String name) {
    return LabNode.named(name, nodes());
  }

  public boolean has(Stack s) {
    return stacks.contains(s.word());
  }

  /** The stacks that are up, in {@link Stack}'s order. */
  List<Stack> upStacks() {
    return stacks.stream().map(Stack::parse).sorted().toList();
  }

  public String setting(String key) {
    return settings.get(key);
  }

  void write(Path file) {
    try {
      Files.createDirectories(file.getParent());
      Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
      JSON.writeValue(tmp.toFile(), this);
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new LabException("cannot write " + file + ": " + e.getMessage());
    }
  }

  static Optional<LabState> read(Path file) {
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    try {
      return Optional.of(JSON.readValue(file.toFile(), LabState.class));
    } catch (IOException e) {
      throw new LabException("cannot read " + file + ": " + e.getMessage());
    }
  }
}

package lockstep.lab.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import lockstep.coordinator.it.Cli;
import lockstep.lab.Lab;
import lockstep.lab.LabConfig;
import lockstep.lab.LabSetting;
import lockstep.lab.LabState;
import lockstep.lab.Stack;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestWatcher;
import org.opentest4j.TestAbortedException;

/**
 * One lab for every {@link OnLab} class of a test run, in a known state for each:
 *
 * <ul>
 *   <li>before a class: the lab up with at least the stacks and nodes the class needs (the first
 *       class boots what the whole run needs, {@link LabPlan}, or takes the lab that is up in the
 *       directory (a {@code lab up} made by hand, say); a lab command still running there is waited
 *       for, not raced; a lab with a process gone, or one a class before left broken, is taken down
 *       and booted afresh, so one failure does not cascade;
 *   <li>before the next class: every setting a class changed set back (a remounting one only if it
 *       changed); after a class: the time it took printed; after a failed test, the agents must
 *       still answer, or the lab goes down;
 *   <li>when the test run ends: {@code lab down}.
 * </ul>
 *
 * No class depends on another having run, nor on their order. The machine is checked once: a
 * machine without what the lab needs fails every class under {@code CI=true} and skips them
 * elsewhere, each test counted.
 */
public final class LabFixture
    implements BeforeAllCallback,
        AfterAllCallback,
        BeforeEachCallback,
        ParameterResolver,
        TestWatcher {
  private static final ExtensionContext.Namespace NS =
      ExtensionContext.Namespace.create(LabFixture.class);

  /** The lab's settings at boot, what each class gets; null before the first boot. */
  private static Map<String, String> booted;

  private static String missing;
  private static boolean machineChecked;

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    long t0 = System.nanoTime();
    context.getStore(NS).put("t0", t0);
    if (!machineReady()) {
      return;
    }
    OnLab on = context.getRequiredTestClass().getAnnotation(OnLab.class);
    LabPlan.Shape need = LabPlan.Shape.of(on);
    TestLab lab = ready(need);
    context.getStore(NS).put(TestLab.class, lab);
    context.getStore(NS).put("setup", (System.nanoTime() - t0) / 1e9);
  }

  private static synchronized boolean machineReady() {
    if (!machineChecked) {
      machineChecked = true;
      try {
        TestLab.requireMachine();
      } catch (TestAbortedException e) {
        missing = e.getMessage();
      }
    }
    return missing == null;
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    if (missing != null) {
      Assumptions.abort(missing);
    }
  }

  /** A lab that serves {@code need}, in the settings it booted with. */
  private static synchronized TestLab ready(LabPlan.Shape need) {
    Lab lab = new Lab(LabConfig.of(TestLab.DIR, LabConfig.DEFAULT_CACHE), quiet());
    long w0 = System.nanoTime();
    if (lab.awaitOtherCommand()) {
      System.out.printf(
          Locale.ROOT,
          "lab fixture: waited %.0f s for the lab command running on %s%n",
          (System.nanoTime() - w0) / 1e9,
          TestLab.DIR);
    }
    Optional<LabState> state = lab.running();
    if (state.isPresent() && booted == null) {
      System.out.printf(
          "lab fixture: the lab in %s is up (%d nodes, %s): the classes run on it%n",
          TestLab.DIR, state.get().nodeCount(), String.join(" ", state.get().stacks()));
    }
    if (state.isEmpty() && booted != null) {
      System.out.println("lab fixture: the lab is broken (a process is gone): booting afresh");
    }
    LabPlan.Shape want = LabPlan.planned().filter(p -> p.serves(need)).orElse(need);
    if (state.isPresent()
        && (state.get().clients().size() < need.nodes()
            || state.get().servers() < need.servers())) {
      System.out.printf(
          "lab fixture: the lab has %d clients and %d servers, the class needs %d and %d: booting"
              + " afresh%n",
          state.get().clients().size(), state.get().servers(), need.nodes(), need.servers());
      state = Optional.empty();
    }
    if (state.isEmpty()) {
      down();
      up(want.stacks(), want.nodes() + want.servers(), want.servers(), want.bootSettings());
      booted = null;
    } else {
      LabState up = state.get();
      List<Stack> missingStacks = need.stacks().stream().filter(s -> !up.has(s)).sorted().toList();
      if (!missingStacks.isEmpty()) {
        up(missingStacks, up.nodeCount(), up.servers(), Map.of());
      }
    }
    LabState now = lab.running().orElseThrow(() -> new AssertionError("the lab is not up"));
    if (booted == null) {
      booted = Map.copyOf(now.settings());
    } else if (settingsBack()) {
      now = lab.running().orElseThrow(() -> new AssertionError("the lab is not up"));
    } else {
      return ready(need); // a setting could not be set back: the lab went down, boot afresh
    }
    Shutdown.hook();
    return new TestLab(now.namespace(), now.clients().size());
  }

  /** {@code lab up}; {@code settings} ({@link OnLab#boot}) apply only to a lab that boots. */
  private static void up(
      Collection<Stack> stacks, int nodes, int servers, Map<String, String> settings) {
    List<String> args = new ArrayList<>(List.of("up"));
    stacks.stream().sorted().forEach(s -> args.add(s.word()));
    args.addAll(
        List.of("--nodes", Integer.toString(nodes), "--servers", Integer.toString(servers)));
    // lab up's option of each setting: --localalloc for localalloc, --plock-rate-limit for
    // plock_rate_limit; the kernel's default is the option left out
    settings.forEach(
        (k, v) -> {
          if (!v.equals(LabSetting.DEFAULT)) {
            args.add("--" + k.replace('_', '-') + "=" + v);
          }
        });
    long t0 = System.nanoTime();
    Cli r = TestLab.lab(args.toArray(String[]::new));
    assertThat(r.exitCode()).as("lab %s: %s", String.join(" ", args), r.err()).isZero();
    System.out.printf(
        Locale.ROOT,
        "lab fixture: lab %s took %.0f s%n",
        String.join(" ", args),
        (System.nanoTime() - t0) / 1e9);
  }

  private static void down() {
    Cli r = TestLab.lab("down");
    assertThat(r.exitCode()).as("lab down: %s", r.err()).isZero();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    ExtensionContext.Store store = context.getStore(NS);
    TestLab lab = store.get(TestLab.class, TestLab.class);
    if (lab != null && Boolean.TRUE.equals(store.get("failed", Boolean.class))) {
      checkAgentsOrDown();
    }
    Long t0 = store.get("t0", Long.class);
    Double setup = store.get("setup", Double.class);
    System.out.printf(
        Locale.ROOT,
        "lab fixture: %s took %.0f s (lab ready in %.0f s)%n",
        context.getRequiredTestClass().getSimpleName(),
        t0 == null ? 0 : (System.nanoTime() - t0) / 1e9,
        setup == null ? 0 : setup);
  }

  /**
   * Each setting a class before changed, back to its value at boot: before the next class rather
   * than after the one that changed it, so that the last class's changes cost nothing (a remount of
   * OCFS2 and its agents' restart took 195-220 s on the emulated guests). Returns false if a
   * setting could not be set back (the lab is then down).
   */
  private static synchronized boolean settingsBack() {
    Lab lab = new Lab(LabConfig.of(TestLab.DIR, LabConfig.DEFAULT_CACHE), quiet());
    Optional<LabState> now = lab.running();
    if (now.isEmpty() || booted == null) {
      return true;
    }
    Map<String, String> changed = new TreeMap<>();
    for (LabSetting s : LabSetting.values()) {
      String was = booted.get(s.key());
      String is = now.get().setting(s.key());
      if (was != null && !was.equals(is)) {
        changed.put(s.key(), was);
      }
    }
    if (changed.isEmpty()) {
      return true;
    }
    List<String> args = new ArrayList<>(List.of("set"));
    changed.forEach((k, v) -> args.add(k + "=" + v));
    Cli r = TestLab.lab(args.toArray(String[]::new));
    if (r.exitCode() != 0) {
      System.out.println("lab fixture: settings not set back (" + r.err().strip() + "): lab down");
      down();
      booted = null;
      return false;
    }
    System.out.println("lab fixture: set back " + changed);
    return true;
  }

  /**
   * After a failed test: each stack's agents must answer, or the lab goes (the next boots anew).
   */
  private static synchronized void checkAgentsOrDown() {
    Lab lab = new Lab(LabConfig.of(TestLab.DIR, LabConfig.DEFAULT_CACHE), quiet());
    Optional<LabState> now = lab.running();
    if (now.isEmpty()) {
      return;
    }
    for (String stack : now.get().stacks()) {
      Cli r = TestLab.lab("agents", "--stack", stack);
      if (r.exitCode() != 0) {
        System.out.println(
            "lab fixture: after a failed test the " + stack + " agents do not answer: lab down");
        down();
        return;
      }
    }
  }

  @Override
  public void testFailed(ExtensionContext context, Throwable cause) {
    context.getParent().ifPresent(c -> c.getStore(NS).put("failed", true));
  }

  @Override
  public boolean supportsParameter(ParameterContext p, ExtensionContext e) {
    return p.getParameter().getType() == TestLab.class;
  }

  @Override
  public Object resolveParameter(ParameterContext p, ExtensionContext e) {
    ExtensionContext classContext = e.getTestMethod().isPresent() ? e.getParent().orElseThrow() : e;
    // null when the machine cannot run the lab: each test is then skipped, and counted, in
    // beforeEach
    return classContext.getStore(NS).get(TestLab.class, TestLab.class);
  }

  private static PrintStream quiet() {
    return new PrintStream(OutputStream.nullOutputStream());
  }

  /**
   * {@code lab down} once the test JVM ends (and .ci/run's teardown downs it whatever happens); not
   * with {@code -Dlockstep.lab.keep=true}, for a developer's next run of a class on the same lab.
   */
  private static final class Shutdown {
    private static boolean hooked;

    static synchronized void hook() {
      if (!hooked && !Boolean.getBoolean("lockstep.lab.keep")) {
        hooked = true;
        Runtime.getRuntime()
            .addShutdownHook(new Thread(() -> TestLab.lab("down"), "lab-fixture-down"));
      }
    }
  }
}

package lockstep.lab.it;

import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import lockstep.lab.LabSetting;
import lockstep.lab.Stack;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * The lab this test run needs: every stack and the most nodes any {@link OnLab} class in it asks
 * for, read from the test plan before the first class runs (registered through META-INF/services),
 * so that the first class boots the one lab all of them share. {@code -Dit.test=LabSeed1IT} alone
 * boots only what that class needs.
 */
public final class LabPlan implements TestExecutionListener {
  /**
   * What a lab has: its stacks, clients (the nodes that mount them) and the settings it boots with
   * ({@link OnLab#boot}); a server node beside the clients when a stack needs one (NFS).
   */
  record Shape(Set<Stack> stacks, int nodes, Map<String, String> boot) {
    Shape {
      stacks = Set.copyOf(stacks);
      boot = Map.copyOf(boot);
    }

    static Shape of(OnLab on) {
      Set<Stack> s = EnumSet.noneOf(Stack.class);
      s.addAll(java.util.List.of(on.stacks()));
      Map<String, String> boot = new TreeMap<>();
      for (String kv : on.boot()) {
        // checked as lab set checks it: a known key, a value in its range
        LabSetting.Change c = LabSetting.parse(kv);
        boot.put(c.setting().key(), c.word());
      }
      return new Shape(s, on.nodes(), boot);
    }

    Shape plus(Shape o) {
      Set<Stack> s = EnumSet.noneOf(Stack.class);
      s.addAll(stacks);
      s.addAll(o.stacks);
      // a key two classes want differently stays, empty: a third class cannot bring it back
      Map<String, String> b = new TreeMap<>(boot);
      o.boot.forEach((k, v) -> b.merge(k, v, (x, y) -> x.equals(y) ? x : ""));
      return new Shape(s, Math.max(nodes, o.nodes), b);
    }

    /** The settings to boot with: those no two classes disagree on. */
    Map<String, String> bootSettings() {
      Map<String, String> b = new TreeMap<>(boot);
      b.values().removeIf(String::isEmpty);
      return b;
    }

    /** The server nodes: one when a stack needs one. */
    int servers() {
      return stacks.stream().anyMatch(Stack::served) ? 1 : 0;
    }

    /** Whether a lab of this shape serves a class that needs {@code need}. */
    boolean serves(Shape need) {
      return stacks.containsAll(need.stacks) && nodes >= need.nodes;
    }
  }

  private static volatile Shape planned;

  /** The whole run's lab, when the plan was read; else empty (the class's own shape is used). */
  static Optional<Shape> planned() {
    return Optional.ofNullable(planned);
  }

  @Override
  public void testPlanExecutionStarted(TestPlan plan) {
    Shape all = null;
    for (TestIdentifier root : plan.getRoots()) {
      for (TestIdentifier t : plan.getDescendants(root)) {
        Optional<OnLab> on = t.getSource().flatMap(LabPlan::onLab);
        if (on.isPresent()) {
          Shape s = Shape.of(on.get());
          all = all == null ? s : all.plus(s);
        }
      }
    }
    planned = all;
  }

  private static Optional<OnLab> onLab(TestSource source) {
    if (source instanceof ClassSource c) {
      try {
        return Optional.ofNullable(c.getJavaClass().getAnnotation(OnLab.class));
      } catch (RuntimeException | LinkageError e) {
        return Optional.empty();
      }
    }
    return Optional.empty();
  }
}

package lockstep.coordinator.expect;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The figures an expectation can judge, each one the report already shows: its key in {@code
 * expect:} and {@code --expect}, what it counts, which plan steps it needs, and whether every node
 * is judged on its own.
 */
public enum Figure {
  EFFICIENCY(Quantity.RATIO, Trait.NEEDS_SOLO, Trait.NEEDS_TOGETHER),
  NODE_EFFICIENCY(Quantity.RATIO, Trait.NEEDS_SOLO, Trait.NEEDS_TOGETHER, Trait.EACH_NODE),
  MIN_NODE_EFFICIENCY(Quantity.RATIO, Trait.NEEDS_SOLO, Trait.NEEDS_TOGETHER),
  THROUGHPUT(Quantity.THROUGHPUT, Trait.NEEDS_TOGETHER),
  NODE_THROUGHPUT(Quantity.THROUGHPUT, Trait.NEEDS_TOGETHER, Trait.EACH_NODE),
  SOLO_THROUGHPUT(Quantity.THROUGHPUT, Trait.NEEDS_SOLO, Trait.EACH_NODE),
  SKEW(Quantity.DURATION),
  P99(Quantity.DURATION, Trait.NEEDS_TOGETHER),
  NODE_P99(Quantity.DURATION, Trait.NEEDS_TOGETHER, Trait.EACH_NODE),
  COHERENCE_ERRORS(Quantity.COUNT);

  /** What a figure counts, which decides the units its bound may have. */
  public enum Quantity {
    /** Plain (0.8) or a percentage (80%). */
    RATIO("a ratio", "no unit or %"),
    /** us, ms or s; kept in milliseconds. */
    DURATION("a duration", "us, ms or s"),
    /** The run's throughput unit (WorkloadKind.unit: MB/s, locks/s, ops/s) or none. */
    THROUGHPUT("a throughput", null),
    /** A whole number without a unit. */
    COUNT("a count", "no unit");

    private final String words;
    private final String units;

    Quantity(String words, String units) {
      this.words = words;
      this.units = units;
    }

    String words() {
      return words;
    }

    /** The units this quantity takes, in words; throughput's depend on the run. */
    String units(String throughputUnit) {
      return units != null ? units : throughputUnit + " (this workload's unit) or none";
    }
  }

  /** Which plan steps a figure needs, and whether every node is judged on its own. */
  private enum Trait {
    NEEDS_SOLO,
    NEEDS_TOGETHER,
    EACH_NODE
  }

  private final Quantity quantity;
  private final Set<Trait> traits;

  Figure(Quantity quantity, Trait... traits) {
    this.quantity = quantity;
    this.traits = Set.of(traits);
  }

  /**
   * As written in {@code expect:} and {@code --expect}: the constant's name in lower case, with
   * dashes ("efficiency", "node-p99").
   */
  public String key() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  public Quantity quantity() {
    return quantity;
  }

  /** Needs each node's solo figure (a solo step, or a one-node ramp step). */
  public boolean needsSolo() {
    return traits.contains(Trait.NEEDS_SOLO);
  }

  /** Needs a step with the nodes together (all, or a ramp step of more than one node). */
  public boolean needsTogether() {
    return traits.contains(Trait.NEEDS_TOGETHER);
  }

  /** Every node is judged on its own, and the expectation holds when it holds on each. */
  public boolean eachNode() {
    return traits.contains(Trait.EACH_NODE);
  }

  /** The figure whose key this is, or null. */
  public static Figure of(String key) {
    return Arrays.stream(values()).filter(f -> f.key().equals(key)).findFirst().orElse(null);
  }

  public static List<String> keys() {
    return Arrays.stream(values()).map(Figure::key).toList();
  }
}

package lockstep.coordinator.expect;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import lockstep.coordinator.model.ExpectationOutcome;
import lockstep.coordinator.model.RunRecord;

/**
 * Reads expectations, strictly: {@code FIGURE: "COMPARATOR NUMBER [UNIT]"}, e.g. {@code efficiency:
 * ">= 0.8"}, {@code skew: "<= 5ms"}, {@code throughput: ">= 150 MB/s"}. The comparator is one of
 * {@code >= <= > < ==} ({@code ==} for counts only); the number is digits with an optional decimal
 * part (no sign, no exponent); the unit must fit the figure: none or % for ratios, us, ms or s for
 * durations (required), the run's own throughput unit or none for throughputs, none for counts. A
 * figure the plan or the workload cannot produce is refused too. Every refusal is one {@link
 * ExpectationException} naming the figure.
 */
public final class ExpectationParser {
  /** Longer than any sensible comparison; longer text is refused without being echoed. */
  static final int MAX_LENGTH = 40;

  private static final Pattern NUMBER = Pattern.compile("(\\d+)(?:\\.(\\d+))?");
  private static final int MAX_DIGITS = 12;
  private static final Pattern CLI_KEY = Pattern.compile("([a-z0-9-]+)\\s*(.*)", Pattern.DOTALL);
  private static final Set<String> THROUGHPUT_UNITS = Set.of("MB/s", "locks/s", "ops/s");

  private ExpectationParser() {}

  /** One expectation: {@code figure} as the key, {@code expression} as the value of expect:. */
  public static Expectation parse(String figure, String expression, PlanFigures plan) {
    Figure f = Figure.of(figure);
    if (f == null) {
      throw new ExpectationException(
          figure, "unknown figure (known: " + String.join(", ", Figure.keys()) + ")");
    }
    if (expression == null || expression.isBlank()) {
      throw new ExpectationException(
          figure, "is empty; write a comparison such as '" + example(f, plan) + "'");
    }
    String text = expression.strip();
    if (text.length() > MAX_LENGTH) {
      throw new ExpectationException(
          figure,
          "is "
              + text.length()
              + " characters long; a comparison is short, such as '"
              + example(f, plan)
              + "'");
    }
    Comparison cmp = Comparison.startOf(text);
    if (cmp == null) {
      throw new ExpectationException(
          figure, "'" + text + "' must start with a comparator: >=, <=, >, < or ==");
    }
    String rest = text.substring(cmp.symbol().length()).strip();
    Matcher n = NUMBER.matcher(rest);
    if (!n.lookingAt()) {
      throw new ExpectationException(
          figure,
          "'"
              + text
              + "': "
              + cmp.symbol()
              + " must be followed by a number (digits, with a decimal point if need be: 0.8,"
              + " 150, 2.5)");
    }
    String number = n.group();
    int written = n.group(2) == null ? 0 : n.group(2).length();
    if (n.group(1).length() > MAX_DIGITS || written > MAX_DIGITS) {
      throw new ExpectationException(
          figure, "'" + text + "': " + number + " has more than " + MAX_DIGITS + " digits");
    }
    String unit = rest.substring(n.end()).strip();
    if (cmp == Comparison.EQUAL && f.quantity() != Figure.Quantity.COUNT) {
      throw new ExpectationException(
          figure,
          "'"
              + text
              + "': == suits counts (coherence-errors) only; "
              + f.key()
              + " is "
              + f.quantity().words()
              + ", compare it with >= or <=");
    }
    double value = new BigDecimal(number).doubleValue();
    Expectation e = bound(f, cmp, value, number, written, unit, text, plan);
    producible(f, plan);
    return e;
  }

  private static Expectation bound(
      Figure f,
      Comparison cmp,
      double value,
      String number,
      int written,
      String unit,
      String text,
      PlanFigures plan) {
    String key = f.key();
    switch (f.quantity()) {
      case RATIO -> {
        if (unit.isEmpty()) {
          int d = Math.max(2, written);
          String shown = String.format(Locale.ROOT, "%." + d + "f", value);
          return new Expectation(f, cmp, value, text, shown, 1, "", d, "ratio");
        }
        if (unit.equals("%")) {
          double fraction = new BigDecimal(number).movePointLeft(2).doubleValue();
          return new Expectation(
              f, cmp, fraction, text, number + "%", 100, "%", Math.max(1, written), "ratio");
        }
      }
      case DURATION -> {
        if (unit.isEmpty()) {
          throw new ExpectationException(
              key,
              "'"
                  + text
                  + "': a duration needs its unit, us, ms or s (e.g. '"
                  + cmp.symbol()
                  + " "
                  + number
                  + "ms')");
        }
        // shown = ms x scale; the bound in ms exactly as written (2s is 2000, not 1999.99...)
        int shift =
            switch (unit) {
              case "us" -> -3;
              case "ms" -> 0;
              case "s" -> 3;
              default -> Integer.MIN_VALUE;
            };
        if (shift != Integer.MIN_VALUE) {
          double scale = Math.pow(10, -shift);
          double millis = new BigDecimal(number).movePointRight(shift).doubleValue();
          int d = Math.max(unit.equals("us") ? 1 : 3, written);
          return new Expectation(
              f, cmp, millis, text, number + " " + unit, scale, " " + unit, d, "ms");
        }
      }
      case THROUGHPUT -> {
        if (unit.isEmpty() || unit.equals(plan.unit())) {
          int d = Math.max(plan.unit().equals("MB/s") ? 1 : 0, written);
          return new Expectation(
              f,
              cmp,
              value,
              text,
              number + " " + plan.unit(),
              1,
              " " + plan.unit(),
              d,
              plan.unit());
        }
        if (THROUGHPUT_UNITS.contains(unit)) {
          throw new ExpectationException(
              key,
              "'"
                  + text
                  + "': this run's throughput is in "
                  + plan.unit()
                  + " (workload "
                  + plan.workload()
                  + "), not "
                  + unit);
        }
      }
      case COUNT -> {
        if (unit.isEmpty() && written == 0) {
          return new Expectation(f, cmp, value, text, number, 1, "", 0, "errors");
        }
        if (unit.isEmpty()) {
          throw new ExpectationException(key, "'" + text + "': a count is a whole number");
        }
      }
    }
    throw new ExpectationException(
        key,
        "'"
            + text
            + "': "
            + f.quantity().words()
            + " takes "
            + f.quantity().units(plan.unit())
            + ", not '"
            + unit
            + "'");
  }

  private static void producible(Figure f, PlanFigures plan) {
    String planText = "plan [" + String.join(", ", plan.plan()) + "]";
    boolean noSolo = f.needsSolo() && !plan.solo();
    boolean noTogether = f.needsTogether() && !plan.together();
    if (noSolo || noTogether) {
      String needs =
          f.needsSolo() && f.needsTogether()
              ? "each node alone and the nodes together"
              : f.needsSolo() ? "each node alone" : "the nodes together";
      String lacks =
          noSolo && noTogether
              ? "runs neither"
              : noSolo
                  ? "runs no node alone (no solo step)"
                  : "runs no step with the nodes together (no all or ramp step)";
      throw new ExpectationException(
          f.key(),
          "needs " + needs + ", and " + planText + " " + lacks + "; use plan: [solo, all]");
    }
    if (f == Figure.COHERENCE_ERRORS && plan.noCoherence() != null) {
      throw new ExpectationException(f.key(), plan.noCoherence());
    }
  }

  private static String example(Figure f, PlanFigures plan) {
    return switch (f.quantity()) {
      case RATIO -> ">= 0.8";
      case DURATION -> "<= 5ms";
      case THROUGHPUT -> ">= 100 " + plan.unit();
      case COUNT -> "== 0";
    };
  }

  /**
   * {@code --expect} arguments, {@code FIGURE=COMPARISON} ({@code efficiency='>= 0.8'}); {@code
   * FIGURE COMPARISON} without the '=' reads too ({@code 'efficiency>=0.8'}). A figure given twice
   * is refused. Refusals name {@code --expect FIGURE}.
   */
  public static List<Expectation> commandLine(List<String> args, PlanFigures plan) {
    Map<Figure, Expectation> out = new LinkedHashMap<>();
    for (String arg : args == null ? List.<String>of() : args) {
      Matcher m = CLI_KEY.matcher(arg.strip());
      if (!m.matches() || m.group(1).isEmpty()) {
        throw new ExpectationException(
            "--expect", "'" + arg + "' must be FIGURE=COMPARISON, such as efficiency='>= 0.8'");
      }
      String key = m.group(1);
      String rest = m.group(2);
      if (rest.startsWith("=") && !rest.startsWith("==")) {
        rest = rest.substring(1);
      }
      Expectation e;
      try {
        e = parse(key, rest, plan);
      } catch (ExpectationException ex) {
        throw new ExpectationException("--expect " + ex.field(), ex.problem());
      }
      if (out.put(e.figure(), e) != null) {
        throw new ExpectationException("--expect " + key, "is given twice");
      }
    }
    return List.copyOf(out.values());
  }

  /**
   * The scenario's expectations with the command line's: one given on both keeps the command line's
   * bound in the scenario's place; the others are added after.
   */
  public static List<Expectation> merge(List<Expectation> base, List<Expectation> overrides) {
    Map<Figure, Expectation> out = new LinkedHashMap<>();
    base.forEach(e -> out.put(e.figure(), e));
    overrides.forEach(e -> out.put(e.figure(), e));
    return List.copyOf(out.values());
  }

  /**
   * The expectations a saved run was judged by (run.json's {@code expectations}), read again
   * against the run's plan; an entry that no longer reads is refused naming run.json's field.
   */
  public static List<Expectation> recorded(RunRecord run) {
    PlanFigures plan = PlanFigures.of(run);
    List<Expectation> out = new ArrayList<>();
    for (ExpectationOutcome o : run.expectations()) {
      try {
        out.add(parse(o.figure(), o.expression(), plan));
      } catch (ExpectationException e) {
        throw new ExpectationException("run.json expectations: " + e.field(), e.problem());
      }
    }
    return List.copyOf(out);
  }
}

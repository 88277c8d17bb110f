package lockstep.lab;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

/** The same work for several guests (or stacks) at once, each in its own thread. */
final class Parallel {
  private Parallel() {}

  /**
   * {@code work} for each item at once; the results in the items' order. The first failure is
   * thrown once every item's work has ended (none is left running).
   */
  static <T, R> Map<T, R> each(List<T> items, Function<T, R> work) {
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, items.size()));
    try {
      List<CompletableFuture<R>> fs = new ArrayList<>();
      for (T item : items) {
        fs.add(CompletableFuture.supplyAsync(() -> work.apply(item), pool));
      }
      Map<T, R> out = new LinkedHashMap<>();
      RuntimeException first = null;
      for (int i = 0; i < fs.size(); i++) {
        try {
          out.put(items.get(i), fs.get(i).join());
        } catch (CompletionException e) {
          if (first == null) {
            first =
                e.getCause() instanceof RuntimeException re
                    ? re
                    : new LabException(String.valueOf(e.getCause()));
          }
        }
      }
      if (first != null) {
        throw first;
      }
      return out;
    } finally {
      pool.shutdownNow();
    }
  }
}

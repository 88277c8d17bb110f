package lockstep.agent;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;

/** The in-agent fan-out of the thread-based workloads. */
public final class Threads {
    private Threads() {
    }

    /**
     * Runs {@code body} for 0 .. n-1, each on its own thread (on the calling thread when n is 1,
     * so a single-threaded run has no hand-off), and returns when all have ended. Returns false
     * if the caller was interrupted while waiting.
     */
    public static boolean runAll(int n, String name, IntConsumer body) {
        if (n == 1) {
            body.accept(0);
            return true;
        }
        List<Thread> running = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            final int index = i;
            Thread t = new Thread(() -> body.accept(index), name + "-" + i);
            running.add(t);
            t.start();
        }
        boolean completed = true;
        for (Thread t : running) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                completed = false;
            }
        }
        return completed;
    }
}

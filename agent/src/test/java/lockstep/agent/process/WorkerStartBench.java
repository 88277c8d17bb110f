package lockstep.agent.process;

import java.nio.file.Files;
import java.nio.file.Path;
import lockstep.agent.v1.LockFilesWorkload;
import lockstep.common.WorkloadKind;
import lockstep.worker.v1.WorkerTask;

/**
 * A worker's start as the agent sees it, from {@link WorkerProcess#start} to its ready event (JVM
 * start, class loading, the task's set-up and warm-up): {@code WorkerStartBench DIR STARTS}. Runs
 * on the JVM it is started with, as the agent does: the worker is that JVM's {@code java} with its
 * class path (run it with -cp lockstep-agent.jar:lockstep-agent-tests.jar, so the class path is
 * jars only and the workers' class-data archive applies, in STATE_DIRECTORY/cds when that is set).
 * The first start (0) is left out of the figures: it makes that archive when there is none yet, as
 * an agent's rehearsal does, and the others start once the archive is there. Prints one line per
 * start: {@code first|start N WALL_MS map|dump|off CPU_MS}, CPU_MS the worker's CPU time (user and
 * system, all threads) until ready.
 *
 * <p>The workload is lock-files with one process and one file (its warm-up of {@value
 * lockstep.agent.worker.LockFilesLoop#WARM_UP_FILES} files is part of every start).
 */
public final class WorkerStartBench {
  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]).toAbsolutePath();
    int starts = Integer.parseInt(args[1]);
    WorkerClassArchive archive = WorkerClassArchive.forThisJvm();
    for (int i = 0; i <= starts; i++) {
      Path work = Files.createDirectories(dir.resolve("start-" + i));
      WorkerTask task =
          WorkerTask.newBuilder()
              .setIndex(0)
              .setDir(work.toString())
              .setRoot(dir.toString())
              .setWorkload(
                  WorkloadKind.LOCK_FILES.spec(
                      LockFilesWorkload.newBuilder().setProcesses(1).setFiles(1).build()))
              .build();
      String how =
          archive.path() == null ? "off" : Files.isRegularFile(archive.path()) ? "map" : "dump";
      long t0 = System.nanoTime();
      WorkerProcess w = WorkerProcess.start(task);
      w.awaitReady(120_000);
      long ms = (System.nanoTime() - t0) / 1_000_000;
      // the CPU the worker used until ready (all its threads): what a start costs, less swayed
      // than the wall time by what else runs on the machine
      long cpuMs =
          ProcessHandle.of(w.pid())
              .flatMap(h -> h.info().totalCpuDuration())
              .map(java.time.Duration::toMillis)
              .orElse(-1L);
      w.release(60_000);
      System.out.println((i == 0 ? "first " : "start ") + i + " " + ms + " " + how + " " + cpuMs);
      if (how.equals("dump")) {
        // the archive is made from the first worker's classes once it has exited (in the
        // background for the static archive): the measured starts map it, as a node's do
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (!Files.isRegularFile(archive.path()) && System.nanoTime() < deadline) {
          Thread.sleep(100);
        }
      }
    }
    System.exit(0);
  }
}

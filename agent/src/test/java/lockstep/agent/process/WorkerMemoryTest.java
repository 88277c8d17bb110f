package lockstep.agent.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import lockstep.agent.fs.RootedPaths;
import lockstep.agent.v1.LockFilesWorkload;
import lockstep.agent.workload.LockFilesProcesses;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The worker memory guard, measured from a real worker process. */
class WorkerMemoryTest {
  @TempDir Path root;

  @Test
  void aThousandWorkerJvmsAreRefusedAfterMeasuringOneAndNothingIsLeft() throws Exception {
    LockFilesProcesses w =
        new LockFilesProcesses(
            LockFilesWorkload.newBuilder()
                .setDir("locks")
                .setProcesses(1024)
                .setFiles(1)
                .setLock(lockstep.agent.v1.LockKind.LOCK_KIND_FCNTL)
                .build(),
            new RootedPaths(root, "n1"));
    try {
      assertThatThrownBy(w::prepare)
          .isInstanceOf(ResourceLimitException.class)
          .satisfies(e -> System.out.println("refused: " + e.getMessage()))
          .hasMessageContaining("workload.processes: 1024 worker processes x ")
          .hasMessageContaining("MiB measured (VmRSS of the first)")
          .hasMessageContaining("above 50% of this node's memory")
          .hasMessageContaining("LOCKSTEP_WORKER_MEMORY_PERCENT");
      assertThat(ProcessHandle.current().children().filter(ProcessHandle::isAlive).toList())
          .isEmpty();
    } finally {
      w.cleanup();
    }
  }

  @Test
  void fitsWhenTheShareAllowsIt() throws Exception {
    Files.createDirectories(root.resolve("proc/42"));
    Files.writeString(root.resolve("proc/42/status"), "Name:\tjava\nVmRSS:\t   61440 kB\n");
    Files.writeString(root.resolve("proc/meminfo"), "MemTotal:       8388608 kB\n");
    WorkerMemory.check(root, 42, 60, "workload.processes", 50); // 60 x 60 MiB = 3.5 GiB <= 4 GiB
    assertThatThrownBy(() -> WorkerMemory.check(root, 42, 200, "workload.processes", 50))
        .hasMessage(
            "workload.processes: 200 worker processes x 60 MiB measured (VmRSS of the first) ="
                + " 12000 MiB, above 50% of this node's memory (4096 of 8192 MiB); lower"
                + " workload.processes, or raise the share with LOCKSTEP_WORKER_MEMORY_PERCENT in"
                + " the agent's environment (now 50)");
  }
}

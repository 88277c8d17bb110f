package lockstep.agent.workload;

import lockstep.agent.v1.ReadWorkload;
import lockstep.agent.v1.WriteWorkload;

/** The file workloads the tests start from: one file of 1 MiB, in blocks of 4 KiB. */
final class FileSpecs {
  private FileSpecs() {}

  static ReadWorkload.Builder read(String file) {
    return ReadWorkload.newBuilder().setFile(file).setSizeBytes(1 << 20).setBlockSizeBytes(4096);
  }

  static WriteWorkload.Builder write(String file) {
    return WriteWorkload.newBuilder().setFile(file).setSizeBytes(1 << 20).setBlockSizeBytes(4096);
  }
}

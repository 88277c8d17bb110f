package lockstep.lab;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * How QEMU runs the guests: KVM where /dev/kvm can run Debian's stock kernel, else TCG (software
 * emulation). A PVM /dev/kvm (module kvm_pvm) runs only PVM-enabled guest kernels; Debian's kernel
 * hangs after "Probing EDD" under it, so it counts as no KVM.
 *
 * @param name "kvm" or "tcg": what results are labelled with (lab-accel)
 * @param why one line saying why this one was chosen
 */
public record Accelerator(String name, String why) {
  /**
   * TCG's translation cache per guest, QEMU's default: with 256 MiB the agents' and workers' JVMs
   * filled it about once a minute (QEMU's "info jit": 15-23 flushes in a lab's first 27 minutes),
   * and every flush translates all the guest's code again.
   */
  static final int TB_SIZE_MIB = 1024;

  /**
   * @param wanted "auto", "kvm" or "tcg"
   * @param devKvm /dev/kvm
   * @param kvmPvmModule /sys/module/kvm_pvm
   */
  static Accelerator choose(String wanted, Path devKvm, Path kvmPvmModule) {
    boolean kvm = Files.exists(devKvm);
    boolean pvm = Files.isDirectory(kvmPvmModule);
    switch (wanted) {
      case "kvm":
        if (!kvm) {
          throw new LabException("--accel kvm: " + devKvm + " does not exist");
        }
        return new Accelerator("kvm", "asked for (--accel kvm)" + (pvm ? "; note: kvm_pvm" : ""));
      case "tcg":
        return new Accelerator("tcg", "asked for (--accel tcg)");
      case "auto":
        if (!kvm) {
          return new Accelerator("tcg", devKvm + " does not exist: software emulation");
        }
        if (pvm) {
          return new Accelerator(
              "tcg",
              devKvm + " is PVM (kvm_pvm), which cannot run the stock kernel: software emulation");
        }
        return new Accelerator("kvm", devKvm + " is there");
      default:
        throw new LabException("--accel: '" + wanted + "' is not auto, kvm or tcg");
    }
  }

  static Accelerator choose(String wanted) {
    return choose(wanted, Path.of("/dev/kvm"), Path.of("/sys/module/kvm_pvm"));
  }

  /**
   * The lease a lab run gets on emulated guests unless its options set one: its heartbeat deadline
   * is 20 s instead of 5 s. A guest's one emulated vCPU can leave the agent silent for seconds when
   * the kernel has work of its own: a CI run lost a GFS2 survivor to a 5 s deadline while it
   * recovered the killed node's locks and journal, and a flock ring bouncing GFS2's glock between
   * two guests left one agent's KeepAlive unanswered for 10 s (2026-12-06, the host busy).
   */
  static final String EMULATED_LEASE = "60s";

  /**
   * {@code lockstep run}'s options for a lab run on guests run by {@code accel}: under TCG {@code
   * --lease} {@link #EMULATED_LEASE} unless {@code options} set a lease.
   */
  static List<String> runOptions(String accel, List<String> options) {
    boolean leaseGiven =
        options.stream().anyMatch(o -> o.equals("--lease") || o.startsWith("--lease="));
    if (!accel.equals("tcg") || leaseGiven) {
      return options;
    }
    List<String> out = new ArrayList<>(options);
    out.addAll(List.of("--lease", EMULATED_LEASE));
    return List.copyOf(out);
  }

  /** QEMU's -accel and -cpu options. */
  List<String> qemuArgs() {
    return name.equals("kvm")
        ? List.of("-accel", "kvm", "-cpu", "host")
        : List.of("-accel", "tcg,tb-size=" + TB_SIZE_MIB, "-cpu", "max");
  }
}

package lockstep.coordinator.lab;

import java.nio.file.Files;
import java.nio.file.Path;
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
  /** TCG's translation cache; the default 1 GiB per guest shows in QEMU's memory. */
  static final int TB_SIZE_MIB = 256;

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

  /** QEMU's -accel and -cpu options. */
  List<String> qemuArgs() {
    return name.equals("kvm")
        ? List.of("-accel", "kvm", "-cpu", "host")
        : List.of("-accel", "tcg,tb-size=" + TB_SIZE_MIB, "-cpu", "max");
  }
}

package lockstep.lab.cli;

import lockstep.coordinator.cli.CliExtension;
import lockstep.lab.LabException;

/** Registers {@code lockstep lab} with the coordinator's command line (META-INF/services). */
public final class LabCliExtension implements CliExtension {
  @Override
  public Object command() {
    return new LabCommand();
  }

  @Override
  public boolean explains(Exception e) {
    return e instanceof LabException;
  }
}

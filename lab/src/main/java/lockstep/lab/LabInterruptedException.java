package lockstep.lab;

/** A lab command stopped by Ctrl-C or SIGTERM: what it was doing ended, nothing new starts. */
final class LabInterruptedException extends LabException {
  LabInterruptedException(String why) {
    super(why);
  }
}

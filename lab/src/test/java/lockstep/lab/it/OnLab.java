package lockstep.lab.it;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import lockstep.lab.LabConfig;
import lockstep.lab.Stack;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A test class that runs on the lab: the stacks it needs up and how many nodes (the lab it gets may
 * have more: {@link LabFixture} boots one lab for every class of the test run). The class gets the
 * lab as a {@link TestLab} parameter of a {@code @BeforeAll} or test method, in the state the
 * fixture keeps between classes: every process running, the settings it booted with.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@ExtendWith(LabFixture.class)
public @interface OnLab {
  Stack[] stacks();

  /** How many clients (the nodes that mount the stacks); a server node comes beside them. */
  int nodes() default LabConfig.DEFAULT_NODES;

  /**
   * Settings ({@code key=value}, as {@code lab set} takes them) the lab boots with when this class
   * is in the run: what the class sets first, so that setting it costs nothing. For a setting that
   * remounts (OCFS2's localalloc: a remount and every node's agents restarted, 170-220 s under
   * emulation). Every class then gets the lab in these settings; two classes asking different
   * values for one key boot it with neither.
   */
  String[] boot() default {};
}

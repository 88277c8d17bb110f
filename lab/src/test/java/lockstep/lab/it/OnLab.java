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

  int nodes() default LabConfig.DEFAULT_NODES;
}

package lockstep.lab.it;

import java.util.Comparator;
import org.junit.jupiter.api.ClassDescriptor;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.ClassOrdererContext;

/**
 * Classes with a lab of their own (the interrupted ups) before those on the fixture's lab, so that
 * the two never run their guests at once on the machine's two cores; alphabetical within each. Only
 * the time is at stake: no class relies on another having run.
 */
public final class LabClassOrder implements ClassOrderer {
  @Override
  public void orderClasses(ClassOrdererContext context) {
    context
        .getClassDescriptors()
        .sort(
            Comparator.comparing((ClassDescriptor c) -> c.isAnnotated(OnLab.class))
                .thenComparing(c -> c.getTestClass().getSimpleName()));
  }
}

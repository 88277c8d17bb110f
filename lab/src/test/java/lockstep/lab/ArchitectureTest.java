package lockstep.lab;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The lab beside the coordinator, not inside it: it drives the coordinator as a user does ({@code
 * lockstep certs|agents|run} as processes in its namespace) and reaches into it only through what a
 * site's own tooling could use (the fault injector interface, the command-line extension, the
 * inventory and the run's model of a fault).
 */
class ArchitectureTest {
  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("lockstep.lab");
  }

  @Test
  void theLabDrivesTheCoordinatorAsAUserDoesNotFromInside() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "lockstep.coordinator.run..",
            "lockstep.coordinator.agent..",
            "lockstep.coordinator.session..",
            "lockstep.coordinator.report..",
            "lockstep.coordinator.analysis..",
            "lockstep.coordinator.results..",
            "lockstep.coordinator.collect..",
            "lockstep.coordinator.local..")
        .check(classes);
  }

  @Test
  void onlyTheLabsCommandLineSeesTheCommandLine() {
    noClasses()
        .that()
        .resideOutsideOfPackage("lockstep.lab.cli..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("lockstep.lab.cli..", "lockstep.coordinator.cli..")
        .check(classes);
  }
}

package lockstep.coordinator;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The coordinator's layers, top-down: cli -> session (one `lockstep run`: run, save, print) and
 * local/launch/inventory -> run (phases against agents) and collect (what agents still hold) ->
 * results (a step's and a run's record from the agents' answers) -> agent (the client) and
 * analysis; report -> analysis -> model; scenario -> expect (expectations: parsed with the
 * scenario, judged on a run record, written as JUnit XML) -> model at the bottom. No package loops.
 */
class ArchitectureTest {
  /** What runs a run, records, analyses, shows or starts it: model and scenario see none of it. */
  private static final String[] ABOVE_THE_MODEL = {
    "..coordinator.run..",
    "..coordinator.results..",
    "..coordinator.agent..",
    "..coordinator.session..",
    "..coordinator.report..",
    "..coordinator.analysis..",
    "..coordinator.inventory..",
    "..coordinator.local..",
    "..coordinator.launch.."
  };

  private static JavaClasses classes;

  private static String[] plus(String[] packages, String... more) {
    return Stream.concat(Arrays.stream(packages), Arrays.stream(more)).toArray(String[]::new);
  }

  @BeforeAll
  static void importClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("lockstep.coordinator");
  }

  @Test
  void noPackageDependsOnItselfInALoop() {
    slices().matching("lockstep.coordinator.(*)..").should().beFreeOfCycles().check(classes);
  }

  @Test
  void theCoordinatorUsesTheAgentOnlyThroughItsApiAndTheCommonModule() {
    // the agent module (jnr-ffi, worker plumbing) is not on the coordinator's runtime
    // classpath: its wire API is lockstep.agent.v1 (lockstep-proto), shared code is lockstep.common
    noClasses()
        .should()
        .dependOnClassesThat(
            resideInAPackage("lockstep.agent..").and(not(resideInAPackage("lockstep.agent.v1.."))))
        .check(classes);
  }

  @Test
  void onlyTheAgentClientSpeaksGrpc() {
    // the run layer bounds and cancels its calls with agent.CallScope and asks AgentCallException
    // what went wrong; channels, stubs, contexts and status codes stay in the agent package
    noClasses()
        .that()
        .resideOutsideOfPackage("..coordinator.agent..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.grpc..")
        .check(classes);
  }

  @Test
  void onlyTheCommandLineSeesTheCommandLine() {
    noClasses()
        .that()
        .resideOutsideOfPackage("..coordinator.cli..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("..coordinator.cli..")
        .check(classes);
  }

  @Test
  void runningDoesNotKnowHowItIsShownOrStarted() {
    noClasses()
        .that()
        .resideInAnyPackage("..coordinator.run..", "..coordinator.agent..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "..coordinator.session..",
            "..coordinator.report..",
            "..coordinator.inventory..",
            "..coordinator.local..",
            "..coordinator.launch..")
        .check(classes);
  }

  @Test
  void resultsAreAssembledInOnePlaceThatRunAndCollectBothUse() {
    noClasses()
        .that()
        .resideInAnyPackage("..coordinator.results..", "..coordinator.collect..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "..coordinator.run..", "..coordinator.session..", "..coordinator.report..")
        .check(classes);
    noClasses()
        .that()
        .resideInAPackage("..coordinator.results..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("..coordinator.collect..")
        .check(classes);
  }

  @Test
  void reportsAreBuiltFromResultsNotFromRuns() {
    noClasses()
        .that()
        .resideInAnyPackage("..coordinator.report..", "..coordinator.analysis..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "..coordinator.run..",
            "..coordinator.results..",
            "..coordinator.collect..",
            "..coordinator.agent..",
            "..coordinator.session..",
            "..coordinator.inventory..")
        .check(classes);
  }

  @Test
  void expectationsAreJudgedOnTheRecordAlone() {
    // parsed from the scenario's text and the command line, judged on a RunRecord: what ran the
    // run, how it is analysed, shown or parsed as a scenario is no part of it
    noClasses()
        .that()
        .resideInAPackage("..coordinator.expect..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            plus(ABOVE_THE_MODEL, "..coordinator.scenario..", "..coordinator.collect.."))
        .check(classes);
    noClasses()
        .that()
        .resideInAPackage("..coordinator.model..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("..coordinator.expect..")
        .check(classes);
  }

  @Test
  void theModelAndScenariosDependOnNothingAbove() {
    noClasses()
        .that()
        .resideInAnyPackage("..coordinator.model..", "..coordinator.scenario..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(ABOVE_THE_MODEL)
        .check(classes);
  }
}

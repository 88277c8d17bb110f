package lockstep.agent;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The agent's layers, top-down: service (its gRPC face: main, server, service, clock probes) -> run
 * (the run lifecycle: registry, runs, leases, owners, manifests, run directories) -> metrics (the
 * Prometheus endpoint), security, telemetry, env and workload (what a run does) -> process (the
 * agent's side of worker processes) -> worker (what runs inside a worker process) -> fs (the
 * syscalls); lockstep.common below all. No package loops, nothing in the agent's root package, and
 * io.grpc only in the service (and the generated API).
 */
class ArchitectureTest {
  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages("lockstep.agent", "lockstep.worker");
  }

  @Test
  void noPackageDependsOnItselfInALoop() {
    slices().matching("lockstep.(**)").should().beFreeOfCycles().check(classes);
  }

  @Test
  void theRootPackageHoldsNoClass() {
    noClasses().should().resideInAPackage("lockstep.agent").check(classes);
  }

  @Test
  void onlyTheServiceSpeaksGrpc() {
    noClasses()
        .that()
        .resideInAPackage("lockstep..")
        .and()
        .resideOutsideOfPackages("lockstep.agent.service..", "lockstep.agent.v1..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.grpc..")
        .because(
            "gRPC is the agent's edge: the service turns calls, callers, deadlines and refusals"
                + " into plain types and back")
        .check(classes);
  }

  @Test
  void layersOnlyLookDown() {
    layeredArchitecture()
        .consideringOnlyDependenciesInLayers()
        .layer("service")
        .definedBy("lockstep.agent.service..")
        .layer("run")
        .definedBy("lockstep.agent.run..")
        .layer("security")
        .definedBy("lockstep.agent.security..")
        .layer("metrics")
        .definedBy("lockstep.agent.metrics..")
        .layer("telemetry")
        .definedBy("lockstep.agent.telemetry..")
        .layer("env")
        .definedBy("lockstep.agent.env..")
        .layer("workload")
        .definedBy("lockstep.agent.workload..")
        .layer("process")
        .definedBy("lockstep.agent.process..")
        .layer("worker")
        .definedBy("lockstep.agent.worker..")
        .layer("fs")
        .definedBy("lockstep.agent.fs..")
        .whereLayer("service")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("run")
        .mayOnlyBeAccessedByLayers("service")
        .whereLayer("security")
        .mayOnlyBeAccessedByLayers("service", "run")
        .whereLayer("metrics")
        .mayOnlyBeAccessedByLayers("service", "run")
        .whereLayer("telemetry")
        .mayOnlyBeAccessedByLayers("service", "run", "metrics")
        .whereLayer("env")
        .mayOnlyBeAccessedByLayers("service", "run", "telemetry")
        .whereLayer("workload")
        .mayOnlyBeAccessedByLayers("service", "run")
        .whereLayer("process")
        .mayOnlyBeAccessedByLayers("service", "run", "workload")
        .whereLayer("worker")
        .mayOnlyBeAccessedByLayers("workload", "process")
        .check(classes);
  }
}

package lockstep.coordinator.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.Status;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import lockstep.agent.security.AgentSecurity;
import lockstep.agent.v1.PrepareRequest;
import lockstep.agent.v1.RunSummary;
import lockstep.agent.v1.WorkloadSpec;
import lockstep.agent.v1.WriteWorkload;
import lockstep.coordinator.agent.AgentCallException;
import lockstep.coordinator.agent.ChannelSecurity;
import lockstep.coordinator.agent.GrpcAgent;
import lockstep.coordinator.certs.CertificateAuthority;
import lockstep.coordinator.certs.PemFiles;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real agents (Netty on 127.0.0.1, port 0) with mTLS, a token, or neither, and certificates from
 * {@link CertificateAuthority}: who gets in, and who may touch whose run.
 */
class AgentSecurityTest {
  @TempDir Path dir;
  @TempDir Path roots;
  private SecuredAgents agents;
  private final List<GrpcAgent> clients = new ArrayList<>();
  private Path caPem;

  @BeforeEach
  void certificates() throws Exception {
    agents = new SecuredAgents(dir, roots);
    caPem = agents.caPem;
    agents.write("bob", agents.ca.coordinator("bob"));
  }

  @AfterEach
  void stop() {
    clients.forEach(GrpcAgent::close);
    agents.close();
  }

  private GrpcAgent client(String address, ChannelSecurity security) {
    GrpcAgent a = GrpcAgent.connect(address, security);
    clients.add(a);
    return a;
  }

  private ChannelSecurity as(String who) {
    return ChannelSecurity.of(
        caPem, dir.resolve(who + ".pem"), dir.resolve(who + "-key.pem"), null);
  }

  /** An asynchronous call's answer, or the error it failed with (as a blocking call throws it). */
  private static <T> T answer(CompletableFuture<T> call) {
    try {
      return call.get(30, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e);
    } catch (InterruptedException | TimeoutException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void assertRefused(Runnable call, Status.Code code, String... text) {
    assertThatThrownBy(call::run)
        .isInstanceOfSatisfying(
            AgentCallException.class,
            e -> {
              assertThat(e.code()).isEqualTo(code);
              if (text.length > 0) {
                assertThat(e.getMessage()).contains(text);
              }
            });
  }

  @Test
  void anMtlsAgentServesItsCoordinatorAndRefusesPlaintextAndUnknownCertificates() throws Exception {
    String address = agents.start(agents.mtls());
    assertThat(client(address, as("alice")).describe().getNodeName()).isEqualTo("n1");
    assertRefused(() -> client(address, ChannelSecurity.NONE).describe(), Status.Code.UNAVAILABLE);
    // a certificate with the same name from another CA
    assertRefused(() -> client(address, as("mallory")).describe(), Status.Code.UNAVAILABLE);
    // TLS, but no client certificate
    assertRefused(
        () -> client(address, ChannelSecurity.of(caPem, null, null, null)).describe(),
        Status.Code.UNAVAILABLE);
  }

  @Test
  void aCoordinatorChecksTheAgentCertificateToo() throws Exception {
    String address = agents.start(agents.mtls());
    CertificateAuthority other = CertificateAuthority.create("other CA");
    Path otherCa = dir.resolve("other-ca.pem");
    PemFiles.writeCertificate(otherCa, other.certificate());
    assertRefused(
        () ->
            client(
                    address,
                    ChannelSecurity.of(
                        otherCa, dir.resolve("alice.pem"), dir.resolve("alice-key.pem"), null))
                .describe(),
        Status.Code.UNAVAILABLE);
  }

  @Test
  void onlyTheCertificateThatPreparedARunMayTouchIt() throws Exception {
    String address = agents.start(agents.mtls());
    GrpcAgent alice = client(address, as("alice"));
    GrpcAgent bob = client(address, as("bob"));
    alice.prepare(prepare("r1"));
    String[] why = {"run r1", "CN=alice", "CN=bob"};
    assertRefused(
        () -> bob.start("r1", System.currentTimeMillis() * 1_000_000L),
        Status.Code.PERMISSION_DENIED,
        why);
    assertRefused(() -> bob.abort("r1", "hostile"), Status.Code.PERMISSION_DENIED, why);
    assertRefused(() -> bob.abort("r1", "hostile", true), Status.Code.PERMISSION_DENIED, why);
    assertRefused(() -> bob.getResult("r1"), Status.Code.PERMISSION_DENIED, why);
    assertRefused(() -> bob.cleanup("r1"), Status.Code.PERMISSION_DENIED, why);
    assertRefused(() -> bob.prepare(prepare("r1")), Status.Code.PERMISSION_DENIED, why);
    assertRefused(
        () -> answer(bob.watchProgress("r1", 50, p -> {})), Status.Code.PERMISSION_DENIED, why);
    assertRefused(() -> answer(bob.getResultAsync("r1")), Status.Code.PERMISSION_DENIED, why);
    assertRefused(() -> answer(bob.cleanupAsync("r1")), Status.Code.PERMISSION_DENIED, why);
    assertThat(roots.resolve("n1").resolve("lockstep-r1/out.n1")).exists();
    assertThat(alice.cleanup("r1").getFilesRemoved()).isEqualTo(1);
    assertRefused(() -> bob.removeRunDir("r1"), Status.Code.PERMISSION_DENIED, why);
    assertThat(roots.resolve("n1").resolve("lockstep-r1")).isEmptyDirectory();
    alice.removeRunDir("r1");
    assertThat(roots.resolve("n1").resolve("lockstep-r1")).doesNotExist();
  }

  @Test
  void aTokenAgentRefusesCallsWithoutTheToken() throws Exception {
    String token = "0123456789abcdef0123456789abcdef";
    String address = agents.start(new AgentSecurity(null, null, null, token, false));
    assertRefused(
        () -> client(address, ChannelSecurity.NONE).describe(),
        Status.Code.UNAUTHENTICATED,
        "bearer token");
    assertRefused(
        () -> client(address, ChannelSecurity.of(null, null, null, token + "x")).describe(),
        Status.Code.UNAUTHENTICATED);
    assertRefused(
        () -> client(address, ChannelSecurity.of(null, null, null, token.substring(1))).describe(),
        Status.Code.UNAUTHENTICATED);
    assertThat(
            client(address, ChannelSecurity.of(null, null, null, token)).describe().getNodeName())
        .isEqualTo("n1");
  }

  @Test
  void onLoopbackWithoutAuthenticationEachCoordinatorOwnsItsRunsByItsOwnerId() throws Exception {
    String address = agents.start(AgentSecurity.NONE);
    GrpcAgent first = client(address, ChannelSecurity.NONE);
    GrpcAgent second =
        client(address, new ChannelSecurity(null, null, null, null, "another-coordinator"));
    first.prepare(prepare("r2"));
    // an owner id is a bearer secret on loopback: others see only its fingerprint
    assertRefused(
        () -> second.abort("r2", "x"),
        Status.Code.PERMISSION_DENIED,
        "the run belongs to owner:",
        "this call comes from owner:");
    assertThatThrownBy(() -> second.abort("r2", "x"))
        .message()
        .doesNotContain(ChannelSecurity.OWNER_ID);
    assertRefused(() -> second.cleanup("r2"), Status.Code.PERMISSION_DENIED);
    RunSummary listed = second.listRuns().getRuns(0);
    assertThat(listed.getRunId()).isEqualTo("r2");
    assertThat(listed.getYours()).isFalse();
    assertThat(listed.getOwner())
        .matches("owner:[0-9a-f]{12}")
        .doesNotContain(ChannelSecurity.OWNER_ID);
    assertThat(first.listRuns().getRuns(0).getYours()).isTrue();
    assertThat(first.cleanup("r2").getFilesRemoved()).isEqualTo(1);
  }

  @Test
  void aRequestAboveTheAgentsMessageLimitIsRefusedInWords() throws Exception {
    String address = agents.start(AgentSecurity.NONE);
    PrepareRequest huge =
        PrepareRequest.newBuilder()
            .setRunId("big")
            .setWorkload(
                WorkloadSpec.newBuilder()
                    .setWrite(
                        WriteWorkload.newBuilder().setFile("x".repeat(2 << 20)).setSizeBytes(8192)))
            .build();
    assertRefused(
        () -> client(address, ChannelSecurity.NONE).prepare(huge),
        Status.Code.RESOURCE_EXHAUSTED,
        "is above the receiver's limit of 1048576 bytes (1 MiB); the agent reads requests of at"
            + " most 1 MiB, the coordinator answers of at most 64 MiB (raise with"
            + " LOCKSTEP_MAX_MESSAGE_MIB in its environment)");
    assertThat(roots.resolve("n1").toFile().list()).isEmpty();
  }

  private static PrepareRequest prepare(String runId) {
    return PrepareRequest.newBuilder()
        .setRunId(runId)
        .setWorkload(
            WorkloadSpec.newBuilder()
                .setWrite(
                    WriteWorkload.newBuilder()
                        .setFile("out.{node}")
                        .setSizeBytes(8192)
                        .setBlockSizeBytes(4096)))
        .build();
  }
}

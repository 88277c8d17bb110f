package lockstep.coordinator.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import lockstep.coordinator.certs.CertificateAuthority;
import lockstep.coordinator.certs.PemFiles;
import lockstep.coordinator.inventory.Inventory;
import lockstep.coordinator.inventory.InventoryNode;
import lockstep.coordinator.inventory.InventoryParser;
import lockstep.coordinator.scenario.Echo;
import lockstep.coordinator.scenario.ScenarioException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code lockstep certs --inventory nodes.yaml --out DIR}: a CA, one agent certificate per node
 * (subject alternative names: the node's name and its address's host) and a coordinator client
 * certificate, all PEM. {@code lockstep certs --add-coordinator NAME --out DIR}: one more
 * coordinator certificate from the CA in DIR (one per operator: runs are owned by the certificate's
 * subject). Never writes over an existing file.
 */
@Command(
    name = "certs",
    description = {
      "Make a CA, an agent certificate per inventory node and a coordinator certificate (PEM) for"
          + " mTLS;",
      "or, with --add-coordinator, one more coordinator certificate from the CA already in --out."
    })
final class CertsCommand implements Callable<Integer> {
  @Mixin InventoryOption inventory = new InventoryOption();

  @Option(
      names = "--add-coordinator",
      paramLabel = "NAME",
      description =
          "Issue coordinator-NAME.pem (CN=NAME) from --out's ca.pem and ca-key.pem: another owner"
              + " of runs.")
  String addCoordinator;

  @Option(
      names = "--out",
      required = true,
      paramLabel = "DIR",
      description = "Directory for the PEM files (made if missing).")
  Path out;

  @Option(
      names = "--coordinator-name",
      defaultValue = "lockstep-coordinator",
      paramLabel = "NAME",
      description =
          "Common name of the coordinator certificate: the owner of the runs it prepares (default:"
              + " ${DEFAULT-VALUE}).")
  String coordinatorName;

  @Override
  public Integer call() throws IOException {
    if ((inventory.file == null) == (addCoordinator == null)) {
      throw new ScenarioException(
          "give --inventory FILE (a new CA and every certificate) or --add-coordinator NAME"
              + " (one more coordinator certificate from the CA in --out), not both or neither");
    }
    if (addCoordinator != null) {
      return addCoordinator();
    }
    Inventory inv = new InventoryParser().parse(inventory.file);
    List<Path> targets =
        new ArrayList<>(
            List.of(
                out.resolve("ca.pem"),
                out.resolve("ca-key.pem"),
                out.resolve("coordinator.pem"),
                out.resolve("coordinator-key.pem")));
    for (InventoryNode n : inv.nodes()) {
      targets.add(out.resolve("agent-" + n.name() + ".pem"));
      targets.add(out.resolve("agent-" + n.name() + "-key.pem"));
    }
    for (Path t : targets) {
      if (Files.exists(t, LinkOption.NOFOLLOW_LINKS)) {
        throw new ScenarioException(
            "--out: " + t + " already exists; certs never overwrites (choose an empty directory)");
      }
    }
    if (Files.exists(out) && !Files.isDirectory(out)) {
      throw new ScenarioException("--out: " + out + " is not a directory");
    }
    Files.createDirectories(out);
    CertificateAuthority ca = CertificateAuthority.create("Lockstep CA");
    PemFiles.writeCertificate(out.resolve("ca.pem"), ca.certificate());
    PemFiles.writeKey(out.resolve("ca-key.pem"), ca.keys().getPrivate());
    CertificateAuthority.Issued coordinator = ca.coordinator(coordinatorName);
    PemFiles.writeCertificate(out.resolve("coordinator.pem"), coordinator.certificate());
    PemFiles.writeKey(out.resolve("coordinator-key.pem"), coordinator.keys().getPrivate());
    for (InventoryNode n : inv.nodes()) {
      CertificateAuthority.Issued agent = ca.agent(n.name(), List.of(n.name(), n.host()));
      PemFiles.writeCertificate(out.resolve("agent-" + n.name() + ".pem"), agent.certificate());
      PemFiles.writeKey(out.resolve("agent-" + n.name() + "-key.pem"), agent.keys().getPrivate());
      System.out.printf(
          "agent %-16s %s (names: %s, %s)%n",
          n.name(), out.resolve("agent-" + n.name() + ".pem"), n.name(), n.host());
    }
    System.out.printf(
        "coordinator      %s (CN=%s)%nCA               %s (keep ca-key.pem offline)%n",
        out.resolve("coordinator.pem"), coordinatorName, out.resolve("ca.pem"));
    System.out.printf(
        "%nOn node NAME:  lockstep-agent ... --tls-cert agent-NAME.pem --tls-key agent-NAME-key.pem"
            + " --tls-client-ca ca.pem%nCoordinator:   lockstep run ... --tls-ca %s --tls-cert %s"
            + " --tls-key %s%n",
        out.resolve("ca.pem"), out.resolve("coordinator.pem"), out.resolve("coordinator-key.pem"));
    return 0;
  }

  private int addCoordinator() throws IOException {
    if (!addCoordinator.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,63}")) {
      throw new ScenarioException(
          "--add-coordinator: '"
              + Echo.value(addCoordinator)
              + "' is not a plain name (letters, digits, '.', '_', '-'; at most 64)");
    }
    Path caPem = out.resolve("ca.pem");
    Path caKey = out.resolve("ca-key.pem");
    for (Path p : List.of(caPem, caKey)) {
      if (!Files.isReadable(p)) {
        throw new ScenarioException(
            "--out: "
                + p
                + " is not a readable file; --add-coordinator issues from the CA"
                + " that `lockstep certs --inventory` made there");
      }
    }
    Path cert = out.resolve("coordinator-" + addCoordinator + ".pem");
    Path key = out.resolve("coordinator-" + addCoordinator + "-key.pem");
    for (Path t : List.of(cert, key)) {
      if (Files.exists(t, LinkOption.NOFOLLOW_LINKS)) {
        throw new ScenarioException("--out: " + t + " already exists; certs never overwrites");
      }
    }
    CertificateAuthority ca;
    try {
      ca = CertificateAuthority.of(PemFiles.readCertificate(caPem), PemFiles.readKey(caKey));
    } catch (IOException | IllegalArgumentException e) {
      throw new ScenarioException("--out: " + e.getMessage());
    }
    CertificateAuthority.Issued issued = ca.coordinator(addCoordinator);
    PemFiles.writeCertificate(cert, issued.certificate());
    PemFiles.writeKey(key, issued.keys().getPrivate());
    System.out.printf(
        "coordinator      %s (CN=%s)%n%nCoordinator:   lockstep run ... --tls-ca %s --tls-cert %s"
            + " --tls-key %s%n",
        cert, addCoordinator, caPem, cert, key);
    return 0;
  }
}

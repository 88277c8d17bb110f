package lockstep.coordinator.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import lockstep.coordinator.certs.CertificateAuthority;
import lockstep.coordinator.certs.PemFiles;
import lockstep.coordinator.inventory.Inventory;
import lockstep.coordinator.inventory.InventoryNode;
import lockstep.coordinator.inventory.InventoryParser;
import lockstep.coordinator.scenario.ScenarioException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code lockstep certs --inventory nodes.yaml --out DIR}: a CA, one agent certificate per node
 * (subject alternative names: the node's name and its address's host) and a coordinator client
 * certificate, all PEM. Never writes over an existing file.
 */
@Command(name = "certs", mixinStandardHelpOptions = true,
        description = "Make a CA, an agent certificate per inventory node and a coordinator certificate (PEM) for mTLS.")
final class CertsCommand implements Callable<Integer> {
    @Option(names = "--inventory", required = true, paramLabel = "FILE", description = "Inventory YAML: one agent certificate per node.")
    Path inventory;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Directory for the PEM files (made if missing).")
    Path out;

    @Option(names = "--coordinator-name", defaultValue = "lockstep-coordinator", paramLabel = "NAME",
            description = "Common name of the coordinator certificate: the owner of the runs it prepares (default: ${DEFAULT-VALUE}).")
    String coordinatorName;

    @Override
    public Integer call() throws IOException {
        Inventory inv = new InventoryParser().parse(inventory);
        List<Path> targets = new ArrayList<>(List.of(out.resolve("ca.pem"), out.resolve("ca-key.pem"),
                out.resolve("coordinator.pem"), out.resolve("coordinator-key.pem")));
        for (InventoryNode n : inv.nodes()) {
            targets.add(out.resolve("agent-" + n.name() + ".pem"));
            targets.add(out.resolve("agent-" + n.name() + "-key.pem"));
        }
        for (Path t : targets) {
            if (Files.exists(t, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                throw new ScenarioException("--out: " + t + " already exists; certs never overwrites (choose an empty directory)");
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
            System.out.printf("agent %-16s %s (names: %s, %s)%n", n.name(), out.resolve("agent-" + n.name() + ".pem"), n.name(), n.host());
        }
        System.out.printf("coordinator      %s (CN=%s)%nCA               %s (keep ca-key.pem offline)%n",
                out.resolve("coordinator.pem"), coordinatorName, out.resolve("ca.pem"));
        System.out.printf("%nOn node NAME:  lockstep-agent ... --tls-cert agent-NAME.pem --tls-key agent-NAME-key.pem --tls-client-ca ca.pem%n"
                + "Coordinator:   lockstep run ... --tls-ca %s --tls-cert %s --tls-key %s%n",
                out.resolve("ca.pem"), out.resolve("coordinator.pem"), out.resolve("coordinator-key.pem"));
        return 0;
    }
}

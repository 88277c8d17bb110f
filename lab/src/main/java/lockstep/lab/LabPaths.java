package lockstep.lab;

import java.nio.file.Path;

/** The files of one lab, all under its directory (disks on local disk, not tmpfs). */
public record LabPaths(Path dir) {
  public Path state() {
    return dir.resolve("state.json");
  }

  public Path overlay(LabNode n) {
    return dir.resolve(n.name() + ".qcow2");
  }

  public Path console(LabNode n) {
    return dir.resolve(n.name() + ".console");
  }

  public Path qmp(LabNode n) {
    return dir.resolve(n.name() + ".qmp");
  }

  public Path pidFile(LabNode n) {
    return dir.resolve(n.name() + ".pid");
  }

  /**
   * A disk of the lab, a raw file named after it: a stack's shared disk by the stack's word (gfs2:
   * both QEMUs open it, cache=none, share-rw=on; ocfs2: the storage daemon serves it to both
   * guests), a node's private disk by its {@link LabNode#privateExport()}.
   */
  public Path disk(String name) {
    return dir.resolve(name + ".img");
  }

  public Path nbdSocket() {
    return dir.resolve("storage.nbd");
  }

  public Path storageQmp() {
    return dir.resolve("storage.qmp");
  }

  public Path storagePidFile() {
    return dir.resolve("storage.pid");
  }

  public Path knownHosts() {
    return dir.resolve("known_hosts");
  }

  public Path certs() {
    return dir.resolve("certs");
  }

  public Path inventory(Stack s) {
    return dir.resolve(s.word()).resolve("inventory.yaml");
  }

  public Path results() {
    return dir.resolve("results");
  }
}

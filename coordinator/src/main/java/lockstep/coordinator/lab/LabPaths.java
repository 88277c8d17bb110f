package lockstep.coordinator.lab;

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

  /** GFS2's shared disk: a raw file both QEMUs open (cache=none, share-rw=on). */
  public Path gfs2Disk() {
    return dir.resolve("gfs2.img");
  }

  /** OCFS2's shared disk: a raw file the storage daemon serves to both guests. */
  public Path ocfs2Disk() {
    return dir.resolve("ocfs2.img");
  }

  public Path privateDisk(LabNode n) {
    return dir.resolve(n.privateExport() + ".img");
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

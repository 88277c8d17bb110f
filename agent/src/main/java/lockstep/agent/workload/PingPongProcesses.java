package lockstep.agent.workload;

import lockstep.common.InvalidWorkloadException;
import lockstep.common.WorkloadValidator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import lockstep.agent.fs.PosixException;
import lockstep.agent.fs.RootedPaths;
import lockstep.agent.v1.PingPongIo;
import lockstep.agent.v1.PingPongWorkload;
import lockstep.agent.v1.WorkloadResult;
import lockstep.agent.worker.PingPongLoop;
import lockstep.worker.v1.WorkerTask;

/**
 * ctdb's ping_pong on one node: {@code processes} worker processes, each one participant of
 * the ring ({@link PingPongLoop}) on the file every node shares. The ring has
 * {@code slots} one-byte locks, at least one more than the participants on all nodes of
 * the step (else the ring deadlocks); 0 means exactly participants + 1, as ctdb advises.
 */
public final class PingPongProcesses extends FleetWorkload {

    private final PingPongWorkload spec;
    private final RootedPaths paths;
    private final Path file;
    private final int participants;
    private final int slots;
    private final CreatedDirs createdDirs;
    private lockstep.agent.fs.FileId created;

    /**
     * @param stepNodes how many nodes run the step together (1 if unknown)
     */
    public PingPongProcesses(PingPongWorkload spec, RootedPaths paths, int stepNodes) {
        this.spec = spec;
        this.paths = paths;
        this.file = paths.resolve("file", spec.getFile());
        int nodes = Math.max(1, stepNodes);
        this.participants = nodes * spec.getProcesses();
        this.slots = WorkloadValidator.ringSlots(spec, nodes);
        this.createdDirs = new CreatedDirs(paths);
    }

    int slots() {
        return slots;
    }

    int participants() {
        return participants;
    }

    @Override
    public String opName() {
        return "lock";
    }

    @Override
    public void prepare() {
        created = SharedFileCleanup.prepare(file, createdDirs);
        List<WorkerTask> tasks = new ArrayList<>();
        for (int i = 0; i < spec.getProcesses(); i++) {
            tasks.add(WorkerTask.newBuilder()
                    .setIndex(i)
                    .setRoot(paths.root().toString())
                    .setFile(file.toString())
                    .setSlots(slots)
                    .setParticipants(participants)
                    .setPingPong(spec)
                    .build());
        }
        fleet.start(tasks, file.toString());
    }

    @Override
    public List<String> paths() {
        return List.of(paths.relative(file));
    }

    @Override
    public WorkloadResult.Builder run(long startAtUnixNanos) {
        return fleet.run(startAtUnixNanos, opName()).setMeasureDelayNanos(spec.getWarmupMillis() * 1_000_000L);
    }

    @Override
    public CleanupReport cleanup() {
        fleet.release();
        return SharedFileCleanup.remove(file, created, createdDirs, paths);
    }
}

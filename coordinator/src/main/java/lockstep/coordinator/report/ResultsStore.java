package lockstep.coordinator.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import lockstep.coordinator.model.RunRecord;

/** Runs on disk: OUT/RUN-ID/run.json. */
public final class ResultsStore {
    public static final String RUN_FILE = "run.json";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final Path out;

    public ResultsStore(Path out) {
        this.out = out;
    }

    public Path save(RunRecord run) {
        Path dir = out.resolve(run.runId());
        try {
            Files.createDirectories(dir);
            Path file = dir.resolve(RUN_FILE);
            Path tmp = dir.resolve(RUN_FILE + ".tmp");
            JSON.writeValue(tmp.toFile(), run);
            Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write results to " + dir + ": " + e.getMessage(), e);
        }
    }

    public static RunRecord load(Path runJson) throws IOException {
        return JSON.readValue(runJson.toFile(), RunRecord.class);
    }

    public static ObjectMapper json() {
        return JSON;
    }
}

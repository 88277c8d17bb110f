package lockstep.coordinator.it;

import static org.junit.jupiter.api.Assertions.fail;

import com.github.dockerjava.api.exception.NotFoundException;
import org.junit.jupiter.api.Assumptions;
import org.testcontainers.DockerClientFactory;

/**
 * What the container tests need from the machine. Missing: with {@code CI=true} the test fails,
 * elsewhere it is skipped with one line saying why.
 */
final class Requirements {
    private Requirements() {
    }

    static boolean ci() {
        return "true".equals(System.getenv("CI"));
    }

    static void missing(String what) {
        if (ci()) {
            fail("CI=true and " + what);
        }
        System.out.println("skipped: " + what);
        Assumptions.abort(what);
    }

    static void docker() {
        boolean up;
        String why = "";
        try {
            up = DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException e) {
            up = false;
            why = ": " + e.getMessage();
        }
        if (!up) {
            missing("no Docker engine answers" + why + " (scripts/ci/docker-up.sh starts one)");
        }
    }

    static void image(String image, String howToBuild) {
        try {
            DockerClientFactory.instance().client().inspectImageCmd(image).exec();
        } catch (NotFoundException e) {
            missing("image " + image + " is not in the Docker engine (" + howToBuild + "); tests pull nothing");
        }
    }

    static void program(String name) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            if (java.nio.file.Files.isExecutable(java.nio.file.Path.of(dir, name))) {
                return;
            }
        }
        missing(name + " is not on the PATH (Debian package openssh-client)");
    }
}

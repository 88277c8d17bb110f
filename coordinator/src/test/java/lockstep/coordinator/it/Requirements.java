package lockstep.coordinator.it;

import com.github.dockerjava.api.exception.NotFoundException;
import lockstep.testsupport.Required;
import org.testcontainers.DockerClientFactory;

/**
 * What the container tests need from the machine. Missing: with {@code CI=true} the test fails,
 * elsewhere it is skipped with one line saying why.
 */
final class Requirements {
  private Requirements() {}

  static void missing(String what) {
    Required.missing(what);
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
      missing(
          "image "
              + image
              + " is not in the Docker engine ("
              + howToBuild
              + "); tests pull nothing");
    }
  }

  static void program(String name) {
    Required.program(name, "openssh-client");
  }
}

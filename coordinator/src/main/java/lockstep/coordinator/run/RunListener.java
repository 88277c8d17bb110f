package lockstep.coordinator.run;

import java.util.List;
import lockstep.agent.v1.ProgressSample;
import lockstep.agent.v1.RunState;
import lockstep.coordinator.model.StepRecord;

/** What a run tells the terminal while it goes; every method may be called from any thread. */
public interface RunListener {
  void stepArmed(String stepId, List<String> nodes, long startInMillis);

  void progress(String stepId, String node, ProgressSample sample, RunState state);

  void stepFinished(StepRecord step);

  /** The unmeasured warm-up step of fresh agents ended (its record is not the run's). */
  default void warmedUp(List<String> nodes, StepRecord step) {}

  /** The run waits before a step, for {@code why}. */
  void settling(String stepId, String why);

  RunListener SILENT =
      new RunListener() {
        @Override
        public void stepArmed(String stepId, List<String> nodes, long startInMillis) {}

        @Override
        public void progress(String stepId, String node, ProgressSample sample, RunState state) {}

        @Override
        public void stepFinished(StepRecord step) {}

        @Override
        public void settling(String stepId, String why) {}
      };
}

package lockstep.coordinator.report;

import lockstep.coordinator.analysis.RunAnalyzer;
import lockstep.coordinator.analysis.Verdicts;
import lockstep.coordinator.model.Analysis;
import lockstep.coordinator.model.RunRecord;

/** Entry point kept for callers: the analysis lives in {@link RunAnalyzer}. */
public final class ScalingAnalysis {
    private ScalingAnalysis() {
    }

    public static Analysis analyse(RunRecord run) {
        return RunAnalyzer.analyse(run);
    }

    /** The analysis with another start-skew threshold than the run's own. */
    public static Analysis analyse(RunRecord run, double skewWarnFraction) {
        return RunAnalyzer.analyse(new RunRecord(run.schema(), run.runId(), run.name(), run.createdAt(), run.coordinatorVersion(),
                run.workloadType(), run.workload(), run.unit(), run.opName(), run.plan(), run.agents(), run.steps(), run.analysis(),
                run.status(), run.errors(), run.repeat(), run.ramp(), skewWarnFraction));
    }

    public static String num(double v) {
        return Verdicts.num(v);
    }
}

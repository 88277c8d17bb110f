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

    public static String num(double v) {
        return Verdicts.num(v);
    }
}

#!/usr/bin/env bash
# Prints every test class's time from the surefire and failsafe XML reports under DIR (default .),
# slowest first, with its tests, failures and skips, and each module's total: where CI's time went.
set -euo pipefail
dir="${1:-.}"
python3 - "$dir" <<'PY'
import glob, os, sys, xml.etree.ElementTree as ET
rows = []
for f in glob.glob(os.path.join(sys.argv[1], "*/target/*-reports/TEST-*.xml")):
    r = ET.parse(f).getroot()
    module = f.split(os.sep)[-4]
    kind = "IT" if "failsafe" in f else "unit"
    rows.append((float(r.get("time", 0)), module, kind, r.get("name", "?").rsplit(".", 1)[-1],
                 int(r.get("tests", 0)), int(r.get("failures", 0)) + int(r.get("errors", 0)),
                 int(r.get("skipped", 0))))
if not rows:
    print("    no test reports found")
    sys.exit(0)
print("    %8s  %-12s %-4s %-40s %5s %5s %5s" % ("seconds", "module", "kind", "class", "tests", "fail", "skip"))
for t, m, k, c, n, bad, skip in sorted(rows, reverse=True):
    print("    %8.1f  %-12s %-4s %-40s %5d %5d %5d" % (t, m, k, c, n, bad, skip))
totals = {}
for t, m, k, *_ in rows:
    totals[(m, k)] = totals.get((m, k), 0) + t
print("    totals: " + ", ".join("%s %s %.0f s" % (m, k, t) for (m, k), t in sorted(totals.items())))
PY

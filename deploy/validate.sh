#!/usr/bin/env bash
# Checks the deployment files under deploy/ without deploying anything and
# without network traffic (apart from apt installing a missing tool).
#
#   bash deploy/validate.sh          # a missing tool that apt cannot bring is "skip"
#   CI=true bash deploy/validate.sh  # ... and there it is a FAIL
#
# Each check prints one line, "ok: ...", "FAIL: ..." or "skip: ... (why)".
# Exit status: 0 when nothing failed, 1 otherwise.
# Tools: systemd-analyze (systemd), ansible-playbook (ansible-core),
# docker compose or docker-compose (docker-compose), python3 + PyYAML
# (python3-yaml), kubectl for `kubectl kustomize` (kubernetes-client).
set -u
set -o pipefail

cd "$(dirname "$0")/.." || exit 1        # the repository root
CI_MODE=false
[ "${CI:-}" = true ] && CI_MODE=true

FAILS=0
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

ok()   { echo "ok: $*"; }
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
skip() {
    if $CI_MODE; then fail "$* [CI=true: a missing tool fails]"; else echo "skip: $*"; fi
}
# Last lines of a tool's output, on one line, for a FAIL message.
tail_of() { tail -n "${2:-5}" "$1" | tr '\n' ' ' | sed 's/  */ /g'; }

# have TEST PACKAGE: runs TEST (a shell snippet); when it fails, apt-get installs
# PACKAGE and runs TEST again. Sets WHY when the tool stays missing.
APT_UPDATED=false
have() {
    local test=$1 pkg=$2
    eval "$test" >/dev/null 2>&1 && return 0
    if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
        WHY="not installed and cannot apt-get install $pkg (not root or no apt)"
        return 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    if ! apt-get install -y -q --no-install-recommends "$pkg" >>"$WORK/apt.log" 2>&1; then
        if ! $APT_UPDATED; then
            APT_UPDATED=true
            apt-get update -q >>"$WORK/apt.log" 2>&1
            apt-get install -y -q --no-install-recommends "$pkg" >>"$WORK/apt.log" 2>&1
        fi
    fi
    eval "$test" >/dev/null 2>&1 && { echo "info: installed $pkg with apt-get"; return 0; }
    WHY="apt-get install $pkg failed: $(tail_of "$WORK/apt.log" 2)"
    return 1
}

# --- systemd ------------------------------------------------------------------
UNIT=deploy/systemd/lockstep-agent.service
if have 'command -v systemd-analyze' systemd; then
    # verify loads the drop-ins next to the unit (lockstep-agent.service.d/) too. It runs
    # without systemd as PID 1 (checked on Debian 12 in a container), but it needs the ExecStart=
    # program, /usr/bin/lockstep-agent, which the package installs. Where it is not installed the
    # unit is verified as a copy that starts the launcher of the built package tree
    # (dist/target/stage, mvn -B package -Pdist), else /bin/true: systemd checks every other line
    # the same, and the package build checks that the unit starts /usr/bin/lockstep-agent.
    VERIFY_UNIT=$UNIT
    VERIFY_NOTE=""
    if [ ! -x /usr/bin/lockstep-agent ]; then
        launcher="$PWD/dist/target/stage/usr/lib/lockstep-agent/bin/lockstep-agent"
        [ -x "$launcher" ] || launcher=/bin/true
        mkdir -p "$WORK/unit/lockstep-agent.service.d"
        sed "s|^ExecStart=/usr/bin/lockstep-agent |ExecStart=$launcher |" "$UNIT" >"$WORK/unit/lockstep-agent.service"
        cp deploy/systemd/lockstep-agent.service.d/10-root.conf "$WORK/unit/lockstep-agent.service.d/"
        VERIFY_UNIT="$WORK/unit/lockstep-agent.service"
        VERIFY_NOTE=" (ExecStart= program: $launcher, as /usr/bin/lockstep-agent is not installed here)"
    fi
    systemd-analyze verify "$VERIFY_UNIT" >"$WORK/verify.log" 2>&1
    rc=$?
    if grep -qiE 'Failed to (initialize|allocate|start up) manager|Failed to create.*manager' "$WORK/verify.log"; then
        # No usable systemd here: fall back to a parse check of sections and keys.
        if python3 - "$UNIT" <<'EOF' >"$WORK/parse.log" 2>&1
import sys, re
sec, bad = None, []
for n, line in enumerate(open(sys.argv[1]), 1):
    s = line.strip()
    if not s or s[0] in "#;":
        continue
    m = re.fullmatch(r"\[(Unit|Service|Install)\]", s)
    if m:
        sec = m.group(1); continue
    if sec is None or not re.fullmatch(r"[A-Za-z][A-Za-z0-9]*=.*", s):
        bad.append(f"line {n}: {s}")
if bad:
    print("; ".join(bad)); sys.exit(1)
EOF
        then ok "systemd: $UNIT parses (parse check only: systemd-analyze verify cannot start here: $(tail_of "$WORK/verify.log" 1))"
        else fail "systemd: $UNIT: $(tail_of "$WORK/parse.log")"
        fi
    elif [ $rc -eq 0 ] && [ ! -s "$WORK/verify.log" ]; then
        ok "systemd: systemd-analyze verify $UNIT (with lockstep-agent.service.d/10-root.conf): no errors, no warnings$VERIFY_NOTE"
    else
        fail "systemd: systemd-analyze verify $UNIT (rc=$rc): $(tail_of "$WORK/verify.log")"
    fi
else
    skip "systemd: systemd-analyze verify ($WHY)"
fi

# --- Ansible ------------------------------------------------------------------
export ANSIBLE_NOCOLOR=1 ANSIBLE_LOCALHOST_WARNING=false \
    ANSIBLE_INVENTORY_UNPARSED_WARNING=false ANSIBLE_RETRY_FILES_ENABLED=false \
    ANSIBLE_LOCAL_TEMP="$WORK/ansible-tmp" ANSIBLE_HOME="$WORK/ansible-home"
if have 'command -v ansible-playbook' ansible-core; then
    if ansible-playbook --syntax-check -i deploy/ansible/inventory.ini.example \
        deploy/ansible/site.yml >"$WORK/ansible.log" 2>&1; then
        ok "ansible: ansible-playbook --syntax-check deploy/ansible/site.yml"
    else
        fail "ansible: syntax check of deploy/ansible/site.yml: $(tail_of "$WORK/ansible.log")"
    fi
    # Runs on localhost only (connection: local); contacts no host.
    if ansible-playbook deploy/ansible/tests/inventory_from_yaml_test.yml \
        -e "lockstep_test_out=$WORK/rendered" >"$WORK/ansible-test.log" 2>&1; then
        ok "ansible: deploy/inventory.example.yaml becomes group lockstep_agents; env file and drop-in render"
    else
        fail "ansible: deploy/ansible/tests/inventory_from_yaml_test.yml: $(grep -E 'fatal|FAILED|ERROR|msg' "$WORK/ansible-test.log" | tail -n 3 | tr '\n' ' ')"
    fi
    # The role installs the agent package; which file it takes is checked here, on localhost.
    if ansible-playbook deploy/ansible/tests/package_test.yml \
        -e "lockstep_test_out=$WORK/packages" >"$WORK/ansible-package.log" 2>&1; then
        ok "ansible: the role takes the newest .deb for Debian, the .rpm for Red Hat, lockstep_agent_package when set, and refuses a wrong or missing one in one message"
    else
        fail "ansible: deploy/ansible/tests/package_test.yml: $(grep -E 'fatal|FAILED|ERROR|msg' "$WORK/ansible-package.log" | tail -n 3 | tr '\n' ' ')"
    fi
else
    skip "ansible: ansible-playbook ($WHY)"
fi

# --- Docker Compose -----------------------------------------------------------
COMPOSE_FILE_PATH=deploy/compose/compose.yaml
COMPOSE=()
if docker compose version >/dev/null 2>&1; then
    COMPOSE=(docker compose)
elif have 'command -v docker-compose' docker-compose; then
    COMPOSE=(docker-compose)
fi
if [ ${#COMPOSE[@]} -gt 0 ]; then
    # `config` only reads and resolves the file: no daemon, no network.
    if "${COMPOSE[@]}" -f "$COMPOSE_FILE_PATH" --profile coordinator config -q >"$WORK/compose.log" 2>&1 \
        && "${COMPOSE[@]}" -f "$COMPOSE_FILE_PATH" --profile coordinator config --services >"$WORK/services" 2>>"$WORK/compose.log" \
        && [ "$(sort "$WORK/services" | tr '\n' ' ')" = "coordinator node1 node2 node3 " ]; then
        ok "compose: ${COMPOSE[*]} config: services node1 node2 node3 coordinator"
        if "${COMPOSE[@]}" -f "$COMPOSE_FILE_PATH" -f deploy/compose/compose.loopback.yaml --profile coordinator config -q >"$WORK/compose-lo.log" 2>&1; then
            ok "compose: ${COMPOSE[*]} config with compose.loopback.yaml (host networking, agents on 127.0.0.21-23)"
        else
            fail "compose: config with deploy/compose/compose.loopback.yaml: $(tail_of "$WORK/compose-lo.log")"
        fi
    else
        fail "compose: ${COMPOSE[*]} config $COMPOSE_FILE_PATH: $(tail_of "$WORK/compose.log") services: $(cat "$WORK/services" 2>/dev/null | tr '\n' ' ')"
    fi
else
    skip "compose: neither docker compose nor docker-compose (${WHY:-})"
fi

# --- Kubernetes: kustomize build ----------------------------------------------
if have 'command -v kubectl' kubernetes-client; then
    if kubectl kustomize deploy/k8s >"$WORK/kustomized.yaml" 2>"$WORK/kustomize.log"; then
        ok "k8s: kubectl kustomize deploy/k8s builds ($(grep -c '^kind:' "$WORK/kustomized.yaml") objects)"
    else
        fail "k8s: kubectl kustomize deploy/k8s: $(tail_of "$WORK/kustomize.log")"
    fi
else
    skip "k8s: kubectl kustomize ($WHY)"
fi

# --- YAML contents (k8s, compose, inventory, scenarios) ------------------------
# Debian's python3 with python3-yaml, not whatever python3 comes first in PATH.
PY=/usr/bin/python3
if have "$PY -c 'import yaml'" python3-yaml; then
    "$PY" - <<'EOF' >"$WORK/yaml.log" 2>&1
import glob, sys
import yaml

IMAGE = "lockstep/agent:0.1.0"
# compose.yaml takes the image from LOCKSTEP_IMAGE (ComposeIT's locally built one), defaulting to IMAGE
COMPOSE_IMAGE = "${LOCKSTEP_IMAGE:-" + IMAGE + "}"
PORT = 7070
fails = 0

def check(label, cond, detail=""):
    global fails
    if cond:
        print(f"ok: {label}")
    else:
        fails += 1
        print(f"FAIL: {label}" + (f" ({detail})" if detail else ""))

def load_all(path):
    with open(path) as f:
        return [d for d in yaml.safe_load_all(f) if d is not None]

# k8s: every document of every file parses.
docs, errors = [], []
for path in sorted(glob.glob("deploy/k8s/*.yaml")):
    try:
        docs += [(path, d) for d in load_all(path)]
    except yaml.YAMLError as e:
        errors.append(f"{path}: {str(e).splitlines()[0]}")
check(f"k8s: {len(docs)} YAML documents in deploy/k8s parse", not errors and docs, "; ".join(errors))

def by_kind(kind):
    return [d for _, d in docs if isinstance(d, dict) and d.get("kind") == kind]

def pod_spec(obj):
    return (((obj or {}).get("spec") or {}).get("template") or {}).get("spec") or {}

def containers(spec):
    return (spec.get("initContainers") or []) + (spec.get("containers") or [])

# Every container of every workload runs the agent image.
images = [(d["kind"], c.get("name"), c.get("image"))
          for d in by_kind("DaemonSet") + by_kind("Job") for c in containers(pod_spec(d))]
check(f"k8s: every container image is {IMAGE}",
      images and all(i == IMAGE for _, _, i in images),
      ", ".join(f"{k}/{n}: {i}" for k, n, i in images if i != IMAGE) or "no containers")

ds = by_kind("DaemonSet")
svc = by_kind("Service")
job = by_kind("Job")
check("k8s: one DaemonSet, one Service, one Job, one ConfigMap, namespace lockstep, the two TLS Secrets",
      len(ds) == 1 and len(svc) == 1 and len(job) == 1 and len(by_kind("ConfigMap")) == 1
      and {x["metadata"]["name"] for x in by_kind("Secret")} == {"lockstep-agent-tls", "lockstep-coordinator-tls"}
      and any(n["metadata"]["name"] == "lockstep" for n in by_kind("Namespace")))

if ds:
    spec = pod_spec(ds[0])
    agent = (spec.get("containers") or [{}])[0]
    ports = sorted((p.get("containerPort"), p.get("protocol", "TCP")) for p in agent.get("ports") or [])
    check(f"k8s: DaemonSet container ports are {PORT}/TCP (gRPC) and {PORT}/UDP (clock probes)",
          ports == [(PORT, "TCP"), (PORT, "UDP")], f"ports {ports}")
    hostpaths = {v["name"]: v["hostPath"]["path"] for v in spec.get("volumes") or [] if "hostPath" in v}
    mounts = {m["mountPath"]: m["name"] for m in agent.get("volumeMounts") or []}
    check("k8s: DaemonSet mounts a hostPath at /data",
          mounts.get("/data") in hostpaths, f"mounts {mounts}, hostPaths {hostpaths}")
    args = agent.get("args") or []
    env = {e["name"]: e for e in agent.get("env") or []}
    node_env = ((env.get("NODE_NAME") or {}).get("valueFrom") or {}).get("fieldRef", {}).get("fieldPath")
    check("k8s: agent args --root /data --name $(NODE_NAME), NODE_NAME from spec.nodeName",
          "--root" in args and args[args.index("--root") + 1] == "/data"
          and "--name" in args and args[args.index("--name") + 1] == "$(NODE_NAME)"
          and node_env == "spec.nodeName", f"args {args}, NODE_NAME from {node_env}")
    probes = {k: agent.get(k) or {} for k in ("startupProbe", "readinessProbe", "livenessProbe")}
    check(f"k8s: startup/readiness/liveness probes are TCP on port {PORT} (the gRPC probe cannot speak mTLS)",
          all((p.get("tcpSocket") or {}).get("port") == PORT for p in probes.values()),
          str({k: list(v) for k, v in probes.items()}))
    secrets = [v["secret"]["secretName"] for v in spec.get("volumes") or [] if "secret" in v]
    check("k8s: agent args --tls-cert/--tls-key/--tls-client-ca from Secret lockstep-agent-tls at /tls",
          all(f in args for f in ("--tls-cert", "--tls-key", "--tls-client-ca")) and "lockstep-agent-tls" in secrets
          and mounts.get("/tls") is not None, f"args {args}, secrets {secrets}")
    pod_labels = ds[0]["spec"]["template"]["metadata"].get("labels") or {}
else:
    pod_labels = {}

if svc:
    s = svc[0]
    sports = [(p.get("port"), p.get("targetPort")) for p in s["spec"].get("ports") or []]
    sprotocols = sorted((p.get("port"), p.get("protocol", "TCP")) for p in s["spec"].get("ports") or [])
    sel = s["spec"].get("selector") or {}
    check(f"k8s: Service lockstep-agents is headless, port {PORT} TCP and UDP, selects the agent pods",
          s["metadata"]["name"] == "lockstep-agents" and s["spec"].get("clusterIP") == "None"
          and sports and sports[0][0] == PORT and sprotocols == [(PORT, "TCP"), (PORT, "UDP")] and sel and all(pod_labels.get(k) == v for k, v in sel.items()),
          f"name {s['metadata']['name']}, clusterIP {s['spec'].get('clusterIP')}, ports {sports}, selector {sel}")

if job:
    c = (pod_spec(job[0]).get("containers") or [{}])[0]
    words = (c.get("command") or []) + (c.get("args") or [])
    agents = words[words.index("--agents") + 1] if "--agents" in words[:-1] else ""
    check("k8s: Job runs the coordinator with --agents dns:///lockstep-agents.lockstep.svc.cluster.local:7070",
          agents == f"dns:///lockstep-agents.lockstep.svc.cluster.local:{PORT}"
          and "/opt/lockstep/lockstep.jar" in words and "--tls-cert" in words, f"command {words}")
    cms = [v["configMap"]["name"] for v in pod_spec(job[0]).get("volumes") or [] if "configMap" in v]
    check("k8s: the Job's scenario ConfigMap exists and holds a scenario",
          cms and all(any(m["metadata"]["name"] == n for m in by_kind("ConfigMap")) for n in cms))

try:
    kust = yaml.safe_load(open("deploy/k8s/kustomization.yaml"))
    import os
    res = kust.get("resources") or []
    check("k8s: kustomization.yaml lists existing files", res and all(os.path.exists(f"deploy/k8s/{r}") for r in res), str(res))
except Exception as e:
    check("k8s: kustomization.yaml", False, str(e))

def scenario_ok(s):
    return isinstance(s, dict) and s.get("name") and s.get("plan") and isinstance(s.get("workload"), dict)

for cm in by_kind("ConfigMap"):
    for key, text in (cm.get("data") or {}).items():
        check(f"k8s: ConfigMap {cm['metadata']['name']}/{key} is a scenario", scenario_ok(yaml.safe_load(text)))

# Compose: agents and coordinator.
try:
    comp = yaml.safe_load(open("deploy/compose/compose.yaml"))
    svcs = comp.get("services") or {}
    bad = []
    for n in ("node1", "node2", "node3"):
        s = svcs.get(n) or {}
        cmd = s.get("command") or []
        if s.get("image") not in (IMAGE, COMPOSE_IMAGE): bad.append(f"{n} image {s.get('image')}")
        name = cmd[cmd.index("--name") + 1] if "--name" in cmd[:-1] else None
        if name != n: bad.append(f"{n} --name {name}")
        if "shared-data:/data" not in (s.get("volumes") or []): bad.append(f"{n} volume")
    co = svcs.get("coordinator") or {}
    if co.get("image") not in (IMAGE, COMPOSE_IMAGE): bad.append(f"coordinator image {co.get('image')}")
    # the loopback override (CI, ComposeIT): host networking for every service, agents on 127.0.0.x
    lo = yaml.safe_load(open("deploy/compose/compose.loopback.yaml"))
    lsvcs = lo.get("services") or {}
    for n in ("node1", "node2", "node3", "coordinator"):
        if (lsvcs.get(n) or {}).get("network_mode") != "host": bad.append(f"loopback {n} network_mode")
    for n in ("node1", "node2", "node3"):
        cmd = (lsvcs.get(n) or {}).get("command") or []
        listen = cmd[cmd.index("--listen") + 1] if "--listen" in cmd[:-1] else ""
        if not listen.startswith("127.0.0."): bad.append(f"loopback {n} --listen {listen}")
    if "coordinator" not in (co.get("profiles") or []): bad.append("coordinator profile")
    check(f"compose: node1..node3 run {IMAGE} with --name nodeN and volume shared-data at /data; coordinator in profile", not bad, "; ".join(bad))
    check("compose: deploy/compose/scenario.yaml is a scenario", scenario_ok(yaml.safe_load(open("deploy/compose/scenario.yaml"))))
except Exception as e:
    check("compose: deploy/compose/compose.yaml", False, repr(e))

# Inventory format.
try:
    inv = yaml.safe_load(open("deploy/inventory.example.yaml"))
    nodes = inv.get("nodes") or []
    check("inventory: deploy/inventory.example.yaml nodes have name, address HOST:PORT, absolute root",
          nodes and all(n.get("name") and ":" in str(n.get("address", "")) and str(n.get("root", "")).startswith("/") for n in nodes))
except Exception as e:
    check("inventory: deploy/inventory.example.yaml", False, repr(e))

sys.exit(1 if fails else 0)
EOF
    cat "$WORK/yaml.log"
    FAILS=$((FAILS + $(grep -c '^FAIL:' "$WORK/yaml.log")))
    if ! grep -qE '^(ok|FAIL):' "$WORK/yaml.log"; then
        fail "yaml: the checker did not run: $(tail_of "$WORK/yaml.log")"
    fi
else
    skip "yaml: $PY with PyYAML ($WHY)"
fi

# --- systemd: env file and drop-in agree ---------------------------------------
ENV_ROOT=$(sed -n 's/^LOCKSTEP_ROOT=//p' deploy/systemd/lockstep-agent.env)
RW_ROOT=$(sed -n 's/^ReadWritePaths=//p' deploy/systemd/lockstep-agent.service.d/10-root.conf)
MNT_ROOT=$(sed -n 's/^RequiresMountsFor=//p' deploy/systemd/lockstep-agent.service.d/10-root.conf)
if [ -n "$ENV_ROOT" ] && [ "$ENV_ROOT" = "$RW_ROOT" ] && [ "$ENV_ROOT" = "$MNT_ROOT" ]; then
    ok "systemd: LOCKSTEP_ROOT in lockstep-agent.env equals ReadWritePaths= and RequiresMountsFor= of 10-root.conf ($ENV_ROOT)"
else
    fail "systemd: LOCKSTEP_ROOT=$ENV_ROOT, ReadWritePaths=$RW_ROOT, RequiresMountsFor=$MNT_ROOT must be equal"
fi

if [ "$FAILS" -gt 0 ]; then
    echo "validate: $FAILS check(s) failed"
    exit 1
fi
echo "validate: all checks passed"

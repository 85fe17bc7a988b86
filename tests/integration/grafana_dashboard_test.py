#!/usr/bin/env python3
"""Structure of the shipped Grafana dashboard and provisioning (no Grafana here).

    grafana_dashboard_test.py REPO_ROOT

Checks: the dashboard has a fixed uid and no import placeholders; the datasource provisioning
has a fixed uid and every panel and every target uses it; panel ids are unique, refIds unique
per panel; every panel says whether it is essential (`ratingdEssential`), the panels an operator
needs (REQUIRED_PANELS) are there and essential; template variables `instance` and `pool` exist and every
`$variable` used is defined or a Grafana built-in; every metric a query names is exported by
ratingd (names read from daemon/ratingd/metrics.cc and daemon/ratingd/process_metrics.cc), recorded by
deploy/prometheus/rules/ratingd.rules.yml, or `up`; and every query, with the variables
substituted as the integration test does, is valid PromQL for Prometheus 2.42 (checked by
`promtool check rules` on a throwaway rule file). Python standard library only.
"""

import json
import os
import re
import subprocess
import sys
import tempfile

DATASOURCE_UID = "prometheus"
# Grafana variables -> values a plain Prometheus accepts (so promtool can run every query).
SUBSTITUTIONS = {"$__rate_interval": "30s", "$__interval": "5s", "$__range": "5m",
                 "$instance": ".*", "$pool": ".*"}
# Panels an operator needs at 3 a.m.: title -> must be essential.
REQUIRED_PANELS = ["Throughput", "Rejections by reason (DLQ)", "Duplicates",
                   "Consumer lag (records)", "Consumer lag (seconds)", "Update latency",
                   "End-to-end latency", "Snapshot age", "Snapshot duration", "Agents per pool",
                   "Results per pool", "ML exploitability", "Rank disagreement", "Top-1 changes",
                   "Top agents' intervals"]
PROMQL_WORDS = {"sum", "max", "min", "avg", "count", "by", "without", "on", "ignoring",
                "group_left", "group_right", "and", "or", "unless", "bool", "rate", "increase",
                "irate", "delta", "deriv", "time", "histogram_quantile", "le", "offset",
                "label_values", "abs", "clamp_min", "clamp_max", "topk", "bottomk",
                "max_over_time", "min_over_time", "avg_over_time", "vector", "scalar"}

errors = []


def error(message):
    errors.append(message)


def substitute(expr):
    # Longest names first: $__rate_interval before $__range would not matter, but be safe.
    for k in sorted(SUBSTITUTIONS, key=len, reverse=True):
        expr = expr.replace(k, SUBSTITUTIONS[k])
    return expr


def load_dashboard(root):
    with open(os.path.join(root, "deploy/grafana/dashboards/ratingd.json")) as f:
        text = f.read()
    return text, json.loads(text)


def queries(dashboard):
    """[(panel, target, substituted expr)] for every target of every panel."""
    out = []
    for panel in dashboard["panels"]:
        for target in panel.get("targets", []):
            out.append((panel, target, substitute(target["expr"])))
    return out


def variable_queries(dashboard):
    """{variable: (metric, substituted series selector, label)} of label_values(...) variables."""
    out = {}
    for v in dashboard.get("templating", {}).get("list", []):
        q = v.get("query")
        q = q.get("query", "") if isinstance(q, dict) else (q or "")
        m = re.fullmatch(r"label_values\((([a-z_:]+)(\{[^}]*\})?),\s*(\w+)\)", q.strip())
        if not m:
            error("variable %s: query %r is not label_values(metric{...}, label)" % (v["name"], q))
            continue
        out[v["name"]] = (m.group(2), substitute(m.group(1)), m.group(4))
    return out


def exported_metrics(root):
    names = set()
    # metrics.cc names each family in a builder call: CounterFamily(r, "name", ...), NewGauge,
    # NewHistogram and the like, or BuildGauge().Name("name").
    family = r'(?:\.Name\(|(?:CounterFamily|GaugeFamily|NewCounter|NewGauge|NewHistogram)\(\s*r,\s*)'
    for path, pattern in (("daemon/ratingd/metrics.cc", family + r'"([a-z_:]+)"'),
                          ("daemon/ratingd/process_metrics.cc", r'Gauge\("([a-z_:]+)"')):
        with open(os.path.join(root, path)) as f:
            names |= set(re.findall(pattern, f.read()))
    histograms = set()
    with open(os.path.join(root, "daemon/ratingd/metrics.cc")) as f:
        histograms = set(
            re.findall(r'(?:BuildHistogram\(\)\s*\.Name\(|NewHistogram\(\s*r,\s*)"([a-z_:]+)"', f.read()))
    for h in histograms:
        names |= {h + "_bucket", h + "_sum", h + "_count"}
    return names


def recorded_metrics(root):
    with open(os.path.join(root, "deploy/prometheus/rules/ratingd.rules.yml")) as f:
        return set(re.findall(r"^\s*- record:\s*(\S+)", f.read(), re.M))


def check_provisioning(root):
    with open(os.path.join(root, "deploy/grafana/provisioning/datasources/prometheus.yaml")) as f:
        ds = f.read()
    uids = re.findall(r"^\s+uid:\s*(\S+)\s*$", ds, re.M)
    if uids != [DATASOURCE_UID]:
        error("datasource provisioning: want exactly one uid %r, got %s" % (DATASOURCE_UID, uids))
    if not re.search(r"^\s+type:\s*prometheus\s*$", ds, re.M):
        error("datasource provisioning: type is not prometheus")
    with open(os.path.join(root, "deploy/grafana/provisioning/dashboards/ratingd.yaml")) as f:
        prov = f.read()
    if not re.search(r"^\s+type:\s*file\s*$", prov, re.M) or "path:" not in prov:
        error("dashboard provisioning: not a file provider with a path")


def check_dashboard(root, text, d):
    if "${DS_" in text or "__inputs" in d or "__requires" in d:
        error("dashboard has import placeholders (${DS_...} / __inputs)")
    if not re.fullmatch(r"[A-Za-z0-9_-]{1,40}", str(d.get("uid", ""))):
        error("dashboard uid missing or not a fixed Grafana uid: %r" % d.get("uid"))
    if not d.get("title"):
        error("dashboard has no title")
    variables = {v["name"]: v for v in d.get("templating", {}).get("list", [])}
    for name in ("instance", "pool"):
        if name not in variables:
            error("template variable %r missing" % name)
    for v in variables.values():
        if v.get("datasource", {}).get("uid") != DATASOURCE_UID:
            error("variable %s: datasource uid is not %r" % (v["name"], DATASOURCE_UID))
    ids = [p.get("id") for p in d["panels"]]
    if len(ids) != len(set(ids)) or None in ids:
        error("panel ids not unique / missing: %s" % ids)
    titles = {}
    for p in d["panels"]:
        where = "panel %s %r" % (p.get("id"), p.get("title"))
        titles[p.get("title")] = p
        if p.get("datasource", {}).get("uid") != DATASOURCE_UID:
            error(where + ": panel datasource uid is not %r" % DATASOURCE_UID)
        if not isinstance(p.get("ratingdEssential"), bool):
            error(where + ": ratingdEssential must be true or false")
        targets = p.get("targets", [])
        if not targets:
            error(where + ": no targets")
        refs = [t.get("refId") for t in targets]
        if len(refs) != len(set(refs)) or None in refs:
            error(where + ": refIds not unique: %s" % refs)
        for t in targets:
            if t.get("datasource", {}).get("uid") != DATASOURCE_UID:
                error(where + " %s: target datasource uid is not %r" % (t.get("refId"), DATASOURCE_UID))
            if not t.get("expr", "").strip():
                error(where + " %s: empty expr" % t.get("refId"))
    for title in REQUIRED_PANELS:
        if title not in titles:
            error("required panel %r missing" % title)
        elif titles[title].get("ratingdEssential") is not True:
            error("required panel %r is not marked essential" % title)
    return variables


def check_queries(root, d, variables):
    known = exported_metrics(root) | recorded_metrics(root) | {"up"}
    if len(known) < 30:
        error("found only %d metric names in daemon/ratingd/metrics.cc: parser broken?" % len(known))
    for name, (metric, _, _) in variable_queries(d).items():
        if metric not in known:
            error("variable %s: metric %r is not exported by ratingd" % (name, metric))
    for panel, target, expr in queries(d):
        where = "panel %r %s" % (panel["title"], target["refId"])
        for var in re.findall(r"\$\{?(\w+)", target["expr"]):
            if var not in variables and "$" + var not in SUBSTITUTIONS:
                error(where + ": unknown variable $" + var)
        # Identifiers outside strings and label matchers and not followed by "(" or "=" / "~".
        stripped = re.sub(r'"[^"]*"', '""', expr)
        stripped = re.sub(r"\{[^}]*\}", "{}", stripped)
        stripped = re.sub(r"\[[^\]]*\]", "[]", stripped)
        stripped = re.sub(r"\((?:\s*[a-z_]+\s*,)*\s*[a-z_]+\s*\)(?=\s*\()", "()", stripped)
        for m in re.finditer(r"[A-Za-z_:][A-Za-z0-9_:]*", stripped):
            name = m.group(0)
            if name in PROMQL_WORDS or re.fullmatch(r"\d.*", name):
                continue
            if name in ("instance", "partition", "pool", "model", "models", "reason", "code",
                        "event", "le"):
                continue  # label names in by (...)
            if name not in known:
                error(where + ": metric %r is neither exported by ratingd nor recorded" % name)


def check_promql(d):
    """Every substituted query parses (promtool check rules on a throwaway rule file)."""
    lines = ["groups:", "  - name: dashboard", "    rules:"]
    for n, (_, _, expr) in enumerate(queries(d)):
        lines.append("      - record: dashboard:q%d" % n)
        lines.append("        expr: %s" % json.dumps(expr))
    with tempfile.NamedTemporaryFile("w", suffix=".yml", delete=False) as f:
        f.write("\n".join(lines) + "\n")
    try:
        p = subprocess.run(["promtool", "check", "rules", f.name], capture_output=True, text=True)
    finally:
        os.unlink(f.name)
    if p.returncode != 0:
        error("promtool rejects a dashboard query:\n" + p.stdout + p.stderr)


def main():
    root = sys.argv[1]
    text, d = load_dashboard(root)
    check_provisioning(root)
    variables = check_dashboard(root, text, d)
    check_queries(root, d, variables)
    check_promql(d)
    if errors:
        print("FAIL:\n  " + "\n  ".join(errors))
        sys.exit(1)
    print("ok: %d panels, %d queries, %d essential panels" % (
        len(d["panels"]), len(queries(d)), sum(p["ratingdEssential"] for p in d["panels"])))


if __name__ == "__main__":
    main()

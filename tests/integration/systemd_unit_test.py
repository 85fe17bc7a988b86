#!/usr/bin/env python3
"""deploy/systemd/ratingd.service.

    systemd_unit_test.py REPO_ROOT RATINGD_BIN

1. `systemd-analyze verify` accepts the unit with no warning at all (the ExecStart binary
   is pointed at the built ratingd, since /usr/local/bin/ratingd is not installed here).
2. `systemd-analyze security --offline=yes` rates its exposure at most 2.0 ("OK").
3. The graceful-stop budget holds: TimeoutStopSec exceeds ratingd's default --drain-timeout
   (read from `ratingd --help`) plus 10 s for the producer close and the final snapshot.
4. The required settings are present (dedicated user, Restart=on-failure, StateDirectory,
   EnvironmentFile, NoNewPrivileges, ProtectSystem=strict), every ${VAR}/$VAR of ExecStart
   is defined in deploy/systemd/ratingd.env, and every --flag of the unit and of the env
   file is one `ratingd --help` lists.
Python standard library only; systemd-analyze comes from Debian's `systemd` package.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

errors = []


def error(m):
    errors.append(m)


def parse_unit(text):
    """{section: [(key, value)]} with continuation lines joined (systemd.syntax(7))."""
    sections, section, pending = {}, None, ""
    for raw in text.splitlines():
        line = pending + raw.strip()
        pending = ""
        if line.endswith("\\"):
            pending = line[:-1] + " "
            continue
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            section = line.strip("[]")
            sections.setdefault(section, [])
            continue
        key, _, value = line.partition("=")
        sections[section].append((key.strip(), value.strip()))
    return sections


def seconds(value):
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*(s|min|ms)?", value)
    if not m:
        raise ValueError(value)
    return float(m.group(1)) * {"s": 1, None: 1, "min": 60, "ms": 1e-3}[m.group(2)]


def main():
    root, ratingd = sys.argv[1], sys.argv[2]
    if not shutil.which("systemd-analyze"):
        print("FAIL: systemd-analyze not found (Debian package systemd; deploy/install-deps.sh)")
        sys.exit(1)
    unit_path = os.path.join(root, "deploy/systemd/ratingd.service")
    with open(unit_path) as f:
        text = f.read()
    unit = parse_unit(text)
    service = dict(unit.get("Service", []))
    helptext = subprocess.run([ratingd, "--help"], capture_output=True, text=True).stdout
    helptext += subprocess.run([ratingd, "--helpfull"], capture_output=True, text=True).stdout
    flags = set(re.findall(r"--([a-z_][a-z0-9_]*)", helptext))
    if "drain_timeout" not in flags:
        error("`ratingd --help` does not list --drain_timeout: %r" % helptext[:500])

    for key, want in (("User", "ratingd"), ("Restart", "on-failure"), ("NoNewPrivileges", "yes"),
                      ("ProtectSystem", "strict"), ("StateDirectory", "ratingd")):
        if service.get(key) != want:
            error("[Service] %s=%r, want %r" % (key, service.get(key), want))
    if "EnvironmentFile" not in service:
        error("[Service] has no EnvironmentFile")

    # 3. Stop budget: default drain from --help (e.g. 'default: 7s').
    m = re.search(r"--drain_timeout\b.*?default: (\d+)s", helptext, re.S)
    if not m:
        error("no default for --drain_timeout in `ratingd --help`")
    else:
        need = float(m.group(1)) + 10
        stop = seconds(service.get("TimeoutStopSec", "0"))
        if stop <= need:
            error("TimeoutStopSec=%ss is not above the drain default %ss + 10 s" % (stop, m.group(1)))

    # 4. Variables and flags.
    with open(os.path.join(root, "deploy/systemd/ratingd.env")) as f:
        env_text = f.read()
    env = dict(l.split("=", 1) for l in env_text.splitlines() if l and not l.startswith("#"))
    exec_start = service.get("ExecStart", "")
    for var in re.findall(r"\$\{?([A-Z_]+)", exec_start):
        if var not in env:
            error("ExecStart uses $%s, not defined in ratingd.env" % var)
    for flag in re.findall(r"--([a-z][a-z0-9_-]*)", exec_start + " " + env.get("RATINGD_OPTS", "")):
        if flag.replace("-", "_") not in flags:
            error("--%s is not a flag of ratingd (--help)" % flag)

    # 1. systemd-analyze verify, with the built binary in place of /usr/local/bin/ratingd.
    tmp = tempfile.mkdtemp(prefix="ratingd-unit-")
    try:
        copy = os.path.join(tmp, "ratingd.service")
        with open(copy, "w") as f:
            f.write(text.replace("/usr/local/bin/ratingd", os.path.abspath(ratingd)))
        p = subprocess.run(["systemd-analyze", "verify", copy], capture_output=True, text=True)
        if p.returncode != 0 or p.stdout.strip() or p.stderr.strip():
            error("systemd-analyze verify (exit %d):\n%s%s" % (p.returncode, p.stdout, p.stderr))
        p = subprocess.run(["systemd-analyze", "security", "--offline=yes", copy],
                           capture_output=True, text=True)
        m = re.search(r"Overall exposure level for ratingd.service: ([\d.]+)", p.stdout + p.stderr)
        if not m:
            error("systemd-analyze security printed no exposure:\n" + p.stdout + p.stderr)
        elif float(m.group(1)) > 2.0:
            error("systemd-analyze security exposure %s > 2.0" % m.group(1))
    finally:
        shutil.rmtree(tmp)

    if errors:
        print("FAIL:\n  " + "\n  ".join(errors))
        sys.exit(1)
    print("ok: systemd-analyze verify clean, exposure %s, TimeoutStopSec %s" % (
        m.group(1), service["TimeoutStopSec"]))


if __name__ == "__main__":
    main()

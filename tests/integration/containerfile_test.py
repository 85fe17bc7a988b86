#!/usr/bin/env python3
"""Static checks of deploy/container/Containerfile (no container engine here).

    containerfile_test.py REPO_ROOT RATINGD_BIN

- two stages, both FROM debian:bookworm(-slim); the build stage uses the repo's CMake preset;
- the runtime stage installs the Debian package of every shared library the built ratingd
  links (ldd + dpkg -S on this Debian 12 machine; libc6/libgcc-s1/libstdc++6 ship with the
  base image);
- it runs as a non-root USER, has a HEALTHCHECK on /readyz and a VOLUME for the snapshots;
- every --flag of ENTRYPOINT/CMD is one `ratingd --help` lists.
Python standard library only.
"""

import re
import subprocess
import sys

BASE_IMAGE = {"libc6", "libgcc-s1", "libstdc++6"}


def main():
    root, ratingd = sys.argv[1], sys.argv[2]
    with open(root + "/deploy/container/Containerfile") as f:
        text = f.read()
    joined = re.sub(r"\\\n", " ", text)
    errors = []
    stages = re.split(r"^FROM ", joined, flags=re.M)[1:]
    if len(stages) != 2:
        errors.append("want 2 stages, got %d" % len(stages))
    for s in stages:
        if not re.match(r"debian:bookworm(-slim)?\b", s):
            errors.append("stage not from debian:bookworm: " + s.split("\n")[0])
    if stages and "cmake --preset release" not in stages[0]:
        errors.append("build stage does not use `cmake --preset release`")
    runtime = stages[-1] if stages else ""

    libs = subprocess.run(["ldd", ratingd], capture_output=True, text=True, check=True).stdout
    paths = [m for m in re.findall(r"=> (/\S+)", libs)]
    packages = set()
    for path in paths:
        real = subprocess.run(["realpath", path], capture_output=True, text=True).stdout.strip()
        p = subprocess.run(["dpkg", "-S", real], capture_output=True, text=True)
        if p.returncode != 0:
            p = subprocess.run(["dpkg", "-S", path], capture_output=True, text=True)
        if p.returncode == 0:
            packages.add(p.stdout.split(":")[0])
        else:
            errors.append("no Debian package owns %s" % path)
    if len(packages) < 5:
        errors.append("ldd found only %s: parser broken?" % sorted(packages))
    installed = set(re.findall(r"[a-z0-9][a-z0-9.+-]+", " ".join(
        re.findall(r"apt-get install[^&]*", runtime))))
    for pkg in sorted(packages - BASE_IMAGE):
        if pkg not in installed:
            errors.append("runtime stage lacks %s (ratingd links it)" % pkg)

    user = re.findall(r"^USER\s+(\S+)", runtime, re.M)
    if not user or user[-1] in ("root", "0"):
        errors.append("runtime stage does not switch to a non-root USER")
    if not re.search(r"^HEALTHCHECK .*CMD .*/readyz", runtime, re.M):
        errors.append("no HEALTHCHECK on /readyz")
    if not re.search(r"^VOLUME\s+/var/lib/ratingd", runtime, re.M):
        errors.append("no VOLUME for the snapshots")

    helptext = subprocess.run([ratingd, "--help"], capture_output=True, text=True).stdout
    flags = set(re.findall(r"--([a-z_][a-z0-9_]*)", helptext))
    for line in re.findall(r"^(?:ENTRYPOINT|CMD) (.*)$", runtime, re.M):
        for flag in re.findall(r'"--([a-z][a-z0-9_-]*)', line):
            if flag.replace("-", "_") not in flags:
                errors.append("--%s is not a ratingd flag" % flag)
    if errors:
        print("FAIL:\n  " + "\n  ".join(errors))
        sys.exit(1)
    print("ok: runtime stage installs %s" % " ".join(sorted(packages - BASE_IMAGE)))


if __name__ == "__main__":
    main()

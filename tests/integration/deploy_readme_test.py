#!/usr/bin/env python3
"""deploy/README.md, the operations guide.

    deploy_readme_test.py REPO_ROOT RATINGD_BIN

- every flag `ratingd --help` lists appears in the README as `--flag-name` (dashes);
- every alert of deploy/prometheus/rules/ratingd.rules.yml has a runbook_url
  `deploy/README.md#anchor` whose anchor is a heading of the README (GitHub's slug rule:
  lower case, punctuation except '-' dropped, spaces to '-'), and that heading is the alert's
  name; no runbook entry for an alert that does not exist;
- every in-page link `(#anchor)` of the README resolves.
Python standard library only.
"""

import re
import subprocess
import sys


def slug(heading):
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def main():
    root, ratingd = sys.argv[1], sys.argv[2]
    with open(root + "/deploy/README.md") as f:
        readme = f.read()
    with open(root + "/deploy/prometheus/rules/ratingd.rules.yml") as f:
        rules = f.read()
    errors = []

    helptext = subprocess.run([ratingd, "--help"], capture_output=True, text=True).stdout
    flags = sorted(set(re.findall(r"^\s+--([a-z][a-z0-9_]*) \(", helptext, re.M)))
    if len(flags) < 20:
        errors.append("parsed only %d flags from `ratingd --help`" % len(flags))
    for flag in flags:
        if "`--%s`" % flag.replace("_", "-") not in readme:
            errors.append("flag --%s (ratingd --help) is not in deploy/README.md" % flag.replace("_", "-"))

    headings = re.findall(r"^#{1,6} (.+)$", readme, re.M)
    anchors = {slug(h): h.strip() for h in headings}
    alerts = re.findall(r"^\s+- alert: (\S+)", rules, re.M)
    urls = re.findall(r'runbook_url: "([^"]+)"', rules)
    if len(alerts) != len(urls):
        errors.append("%d alerts but %d runbook_urls" % (len(alerts), len(urls)))
    for alert, url in zip(alerts, urls):
        path, _, anchor = url.partition("#")
        if path != "deploy/README.md":
            errors.append("%s: runbook_url %r is not deploy/README.md#..." % (alert, url))
        elif anchor not in anchors:
            errors.append("%s: anchor #%s is not a heading of deploy/README.md" % (alert, anchor))
        elif anchors[anchor] != alert:
            errors.append("%s: runbook heading is %r" % (alert, anchors[anchor]))
    runbook = readme.split("\n## Runbook\n", 1)
    if len(runbook) != 2:
        errors.append("no '## Runbook' section")
    else:
        entries = re.findall(r"^### (\S+)$", runbook[1].split("\n## ", 1)[0], re.M)
        for e in entries:
            if e not in alerts:
                errors.append("runbook entry %s has no alert" % e)
    for link in re.findall(r"\]\(#([^)]+)\)", readme):
        if link not in anchors:
            errors.append("link #%s does not resolve" % link)

    if errors:
        print("FAIL:\n  " + "\n  ".join(errors))
        sys.exit(1)
    print("ok: %d flags documented, %d alerts with runbook entries" % (len(flags), len(alerts)))


if __name__ == "__main__":
    main()

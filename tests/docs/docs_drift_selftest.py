#!/usr/bin/env python3
"""docs_drift_selftest: docs_drift_test.py fails on each kind of drift, and only on drift.

Builds small repositories in a temporary folder (not git checkouts, so the checker walks the
tree) and compares the checker's findings with the ones written out below by hand: a clean
repository gives none; each drifted one gives exactly the `file:line` and name listed. The
section sign is written `\\u00a7` here, so that the repository's own run does not read the
fixtures as references.
"""

import os
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import docs_drift_test  # noqa: E402
from repo_tree import RepoTree  # noqa: E402

CHECKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "docs_drift_test.py")

CLEAN = {
    "CMakeLists.txt": """\
project(demo)
# add_library(commented_out x.cc) is not a target
add_library(demo_core core.cc)
add_library(demo::core ALIAS demo_core)
add_executable(demo_tool main.cc)
add_executable(demo_tool_test main_test.cc)
add_subdirectory(lib)
add_subdirectory(tests)
""",
    "core.cc": "// The core (docs/GUIDE.md \u00a72.1, GUIDE.md \u00a71-2; [XX] \u00a79.9 is a paper).\n"
               "// Wrapped: see docs/GUIDE.md\n// \u00a71.1 for the rest.\n",
    "main.cc": "int main() { return 0; }  // \u00a777 alone in code is nobody's\n"
               "// GUIDE \u00a72 is docs/GUIDE.md's; SCO \u00a79 names no file of ours.\n",
    "lib/CMakeLists.txt": "add_library(demo_helpers INTERFACE)\n",
    "lib/helpers.h": "#pragma once\n",
    "lib/README.txt": "not a folder README\n",
    "tests/CMakeLists.txt": "add_library(demo_testing INTERFACE)\nadd_executable(x_check c.cc)\n",
    "tests/c.cc": "\n",
    "README.md": """\
# demo

Targets: `demo::core` (the core), the helpers `demo_helpers`
and the program `demo_tool`.

The core is `core.cc`; helpers in `lib/helpers.h` and `lib/`; design in
[the guide](docs/GUIDE.md#2-two) and `docs/GUIDE.md` \u00a72, \u00a71.1. Not checked: `build/bin/demo_tool`,
`lib/<name>.h`, `lib/*.h`, `/var/lib/demo`, `docs/FILE.md`, `lib/{a}.h`, `x/y.cc`, and
the example `docs/GUIDE.md \u00a79` in backticks.

```sh
cat lib/missing_in_a_code_block.h   # `lib/not_checked.h`
```
""",
    "docs/GUIDE.md": """\
# Guide

## 1. Intro

### 1.1 Detail

As \u00a71.1 says, and [XX] \u00a78.8 (a paper), and [GUIDE.md](GUIDE.md) \u00a72; see also
`../core.cc` and [core](../core.cc).

| name | [XX] | where |
| --- | --- | --- |
| a | \u00a73.3 | \u00a72 |

## 2. Two

### 2.1 More

```text
\u00a799 in a code block is an example
```
""",
}

# Each drift: {file: new text}, and the findings it must give, as (file:line, name).
DRIFTS = {
    "a README misses a target": (
        {"README.md": CLEAN["README.md"].replace("the program `demo_tool`", "the program")},
        [("README.md:3", "`demo_tool`")]),
    "a sub-folder's target is not listed": (
        {"README.md": CLEAN["README.md"].replace("`demo_helpers`", "helpers")},
        [("README.md:3", "`demo_helpers`")]),
    "a README names a target that does not exist": (
        {"README.md": CLEAN["README.md"].replace("and the program", "`demo_old`, the program")},
        [("README.md:4", "`demo_old`")]),
    "a README has no Targets paragraph": (
        {"README.md": CLEAN["README.md"].replace("Targets:", "Built:")},
        [("README.md:1", "`demo_core`"), ("README.md:1", "`demo_helpers`"),
         ("README.md:1", "`demo_tool`")]),
    "a Markdown file names a path that is gone": (
        {"README.md": CLEAN["README.md"].replace("`lib/helpers.h`", "`lib/helpers.hpp`")},
        [("README.md:6", "`lib/helpers.hpp`")]),
    "a folder that is gone": (
        {"README.md": CLEAN["README.md"].replace("and `lib/`", "and `lib/sub/`")},
        [("README.md:6", "`lib/sub/`")]),
    "one of a brace list is gone": (
        {"docs/GUIDE.md": CLEAN["docs/GUIDE.md"].replace("`../core.cc`", "`../{core,more}.cc`")},
        [("docs/GUIDE.md:8", "`../more.cc`")]),
    "a path in a code span wrapped over two lines is gone": (
        {"docs/NOTES.md": "# Notes\n\nSee `make\nall` and `lib/gone.h`.\n"},
        [("docs/NOTES.md:4", "`lib/gone.h`")]),
    "a relative link is broken": (
        {"docs/GUIDE.md": CLEAN["docs/GUIDE.md"].replace("(../core.cc)", "(core.cc)")},
        [("docs/GUIDE.md:8", "`core.cc`")]),
    "a \u00a7 reference in code points at no section": (
        {"core.cc": CLEAN["core.cc"].replace("\u00a72.1", "\u00a72.2")},
        [("core.cc:1", "\u00a72.2")]),
    "a range's far end is missing": (
        {"core.cc": CLEAN["core.cc"].replace("\u00a71-2", "\u00a71-3")},
        [("core.cc:1", "\u00a73")]),
    "a wrapped reference points at no section": (
        {"core.cc": CLEAN["core.cc"].replace("// \u00a71.1", "// \u00a71.2")},
        [("core.cc:3", "\u00a71.2")]),
    "a short name's section is missing": (
        {"main.cc": CLEAN["main.cc"].replace("GUIDE \u00a72", "GUIDE \u00a73")},
        [("main.cc:2", "\u00a73")]),
    "a \u00a7 reference names a file that is gone": (
        {"main.cc": "// See docs/GONE.md \u00a71.\n"},
        [("main.cc:1", "GONE.md")]),
    "a bare \u00a7 in Markdown names no section of its file": (
        {"docs/GUIDE.md": CLEAN["docs/GUIDE.md"].replace("As \u00a71.1", "As \u00a71.3")},
        [("docs/GUIDE.md:7", "\u00a71.3")]),
    "the second of a list of sections is missing": (
        {"README.md": CLEAN["README.md"].replace("\u00a72, \u00a71.1", "\u00a72, \u00a75")},
        [("README.md:7", "\u00a75")]),
    "a table cell outside the paper's column": (
        {"docs/GUIDE.md": CLEAN["docs/GUIDE.md"].replace("| \u00a72 |", "| \u00a74 |")},
        [("docs/GUIDE.md:12", "\u00a74")]),
}


def write_repo(folder, files):
    for name, text in files.items():
        path = os.path.join(folder, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)


class DocsDriftSelfTest(unittest.TestCase):
    def findings(self, changes):
        with tempfile.TemporaryDirectory() as folder:
            write_repo(folder, {**CLEAN, **changes})
            return docs_drift_test.run_checks(RepoTree(folder))

    def test_clean_repository_has_no_findings(self):
        self.assertEqual(self.findings({}), [])

    def test_each_drift_is_found(self):
        for name, (changes, expected) in DRIFTS.items():
            with self.subTest(name):
                found = self.findings(changes)
                self.assertEqual(len(found), len(expected), found)
                for (where, key), finding in zip(sorted(expected), sorted(found)):
                    self.assertTrue(finding.startswith(where + ": "), (finding, where))
                    self.assertIn(key, finding)

    def test_command_line_exit_status(self):
        with tempfile.TemporaryDirectory() as folder:
            write_repo(folder, CLEAN)
            clean = subprocess.run([sys.executable, CHECKER, folder], capture_output=True,
                                   text=True)
            write_repo(folder, {"main.cc": "// docs/GUIDE.md \u00a77\n"})
            drift = subprocess.run([sys.executable, CHECKER, folder], capture_output=True,
                                   text=True)
        self.assertEqual(clean.returncode, 0, clean.stdout + clean.stderr)
        self.assertEqual(drift.returncode, 1)
        self.assertTrue(drift.stdout.startswith("main.cc:1: "), drift.stdout)


if __name__ == "__main__":
    unittest.main()

#!/usr/bin/env python3
"""source_file_lines: no source or script file longer than 600 lines (tests/README.md).

Usage: source_file_lines_test.py ROOT      check the repository's .cc, .h, .py and .sh files
       source_file_lines_test.py --self-test  show the check failing on a synthetic tree

Prints `file:LINES: N lines, more than 600` for each file over the limit and exits 1 when
there is one. The files are the repository's as `git ls-files` gives them (repo_tree.py).
"""

import os
import sys
import tempfile

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from repo_tree import RepoTree  # noqa: E402

LIMIT = 600
EXTENSIONS = (".cc", ".h", ".py", ".sh")


def count_lines(text):
    return len(text.splitlines())


def long_files(tree, limit=LIMIT):
    findings = []
    for path in tree.files:
        if not path.endswith(EXTENSIONS):
            continue
        text = tree.text(path)
        lines = count_lines(text) if text is not None else 0
        if lines > limit:
            findings.append(f"{path}:{lines}: {lines} lines, more than {limit}")
    return findings


def self_test():
    """The findings on a tree whose lengths are written here, against the expected list."""
    files = {
        "a.cc": 600, "b.h": 601, "sub/c.py": 1000, "sub/d.sh": 599, "e.md": 5000,
        "f.txt": 700, "g.cc.in": 900, "sub/h.py": 0,
    }
    expected = ["b.h:601: 601 lines, more than 600",
                "sub/c.py:1000: 1000 lines, more than 600"]
    with tempfile.TemporaryDirectory() as folder:
        for name, lines in files.items():
            os.makedirs(os.path.join(folder, os.path.dirname(name)), exist_ok=True)
            with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
                f.write("x\n" * lines)
        with open(os.path.join(folder, "sub/no_newline.cc"), "w", encoding="utf-8") as f:
            f.write("x\n" * 600 + "last")  # 601 lines, the last without a newline
        expected.append("sub/no_newline.cc:601: 601 lines, more than 600")
        found = long_files(RepoTree(folder))
    if found != expected:
        print("self-test FAILED\n expected:", *expected, "\n found:", *found, sep="\n  ")
        return 1
    print("source_file_lines self-test: the check finds exactly the files over the limit")
    return 0


def main(argv):
    if len(argv) == 2 and argv[1] == "--self-test":
        return self_test()
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    findings = long_files(RepoTree(argv[1]))
    for finding in findings:
        print(finding)
    if findings:
        print(f"source_file_lines: {len(findings)} file(s) over {LIMIT} lines; split them",
              file=sys.stderr)
        return 1
    print(f"source_file_lines: every .cc, .h, .py and .sh file has at most {LIMIT} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

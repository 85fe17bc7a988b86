"""The repository as the document checks see it (tests/README.md, "Documents that cannot drift").

The files are those `git ls-files --cached --others --exclude-standard` lists (tracked, and new
files not yet added that .gitignore does not exclude) and that exist on disk; outside a git
checkout, every file under the root except `.git/` and `build*/` folders.
"""

import os
import subprocess


class RepoTree:
    """The file list of one repository root, with folder lookups and cached text."""

    def __init__(self, root, files=None):
        self.root = os.path.abspath(root)
        if files is None:
            files = list_files(self.root)
        self.files = sorted(set(files))
        self.file_set = set(self.files)
        self.dirs = set()
        for path in self.files:
            parts = path.split("/")
            for i in range(1, len(parts)):
                self.dirs.add("/".join(parts[:i]))
        self.top_level = {path.split("/")[0] for path in self.files}
        self._text = {}

    def exists(self, path, want_dir=False):
        """Whether `path` (relative, normalised) is a listed file or a folder holding one."""
        path = os.path.normpath(path)
        if path == ".":
            return True
        if path.startswith(".."):
            return False
        if want_dir:
            return path in self.dirs
        return path in self.file_set or path in self.dirs

    def text(self, path):
        """The file's text, or None when it is not UTF-8 text (or larger than 2 MB)."""
        if path not in self._text:
            full = os.path.join(self.root, path)
            try:
                if os.path.getsize(full) > 2_000_000:
                    self._text[path] = None
                else:
                    with open(full, "rb") as f:
                        data = f.read()
                    self._text[path] = None if b"\0" in data else data.decode("utf-8")
            except (OSError, UnicodeDecodeError):
                self._text[path] = None
        return self._text[path]


def list_files(root):
    try:
        out = subprocess.run(
            ["git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            check=True, capture_output=True).stdout
        names = [n for n in out.decode("utf-8").split("\0") if n]
        return [n for n in names if os.path.isfile(os.path.join(root, n))]
    except (OSError, subprocess.CalledProcessError):
        return walk_files(root)


def walk_files(root):
    found = []
    for folder, subdirs, names in os.walk(root):
        rel = os.path.relpath(folder, root)
        subdirs[:] = sorted(d for d in subdirs
                            if d != ".git" and not (rel == "." and d.startswith("build")))
        for name in names:
            found.append(os.path.normpath(os.path.join(rel, name)))
    return found

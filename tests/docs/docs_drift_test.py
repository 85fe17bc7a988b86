#!/usr/bin/env python3
"""docs_drift: documents that cannot drift from the repository (tests/README.md).

Usage: docs_drift_test.py ROOT

Prints every finding as `file:line: problem` and exits 1 when there is one:
  a. a folder README (a README.md beside a CMakeLists.txt) whose `Targets:` paragraph misses a
     library or program its folder defines (or a sub-folder without a README of its own
     defines), or names something that is not a target;
  b. a Markdown file naming a repository path, in backticks or as a relative link, that does
     not exist;
  c. a `FILE.md §N` reference, in any text file, to a file or numbered section that does not
     exist (a bare `§N` in a Markdown file refers to that file, unless it cites a paper).
The conventions are in tests/README.md; docs_drift_selftest.py shows each check failing.
"""

import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from repo_tree import RepoTree  # noqa: E402

# --- Markdown lines --------------------------------------------------------------------------

FENCE = re.compile(r"^\s*(```|~~~)")


def markdown_lines(text):
    """(line number, line, inside a fenced code block) for each line."""
    fence = None
    for number, line in enumerate(text.splitlines(), 1):
        match = FENCE.match(line)
        if match:
            if fence is None:
                fence = match.group(1)
                yield number, line, True
                continue
            if match.group(1) == fence:
                fence = None
                yield number, line, True
                continue
        yield number, line, fence is not None


BACKTICKS = re.compile(r"`([^`]+)`")
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")

# --- a. folder READMEs and their targets -----------------------------------------------------

CMAKE_TARGET = re.compile(r"\badd_(library|executable)\s*\(\s*([^\s()]+)([^()]*)\)", re.S)
TARGETS_LINE = re.compile(r"^\s*(?:[-*]\s+)?(?:\*\*)?Targets?:")
TARGET_NAME = re.compile(r"^[A-Za-z0-9_.+-]+(?:::[A-Za-z0-9_.+-]+)?$")
EXEMPT_SUFFIXES = ("_test", "_bench", "_fuzz")


def cmake_targets(tree):
    """({real target: (CMakeLists path, line)}, {alias: real target})."""
    targets, aliases = {}, {}
    for path in tree.files:
        if os.path.basename(path) != "CMakeLists.txt":
            continue
        text = tree.text(path) or ""
        code = re.sub(r"#[^\n]*", lambda m: " " * len(m.group(0)), text)
        for match in CMAKE_TARGET.finditer(code):
            name, args = match.group(2), match.group(3).split()
            if "${" in name or "IMPORTED" in args:
                continue
            line = code.count("\n", 0, match.start()) + 1
            if "ALIAS" in args and args.index("ALIAS") + 1 < len(args):
                aliases[name] = args[args.index("ALIAS") + 1]
            else:
                targets[name] = (path, line)
    return targets, aliases


def exempt(name, cmake_path):
    return cmake_path.startswith("tests/") or name.endswith(EXEMPT_SUFFIXES)


def targets_paragraphs(text):
    """[(line of `Targets:`, [(line, backticked word)])] outside code blocks."""
    found, current = [], None
    for number, line, in_fence in markdown_lines(text):
        if in_fence or not line.strip() or line.lstrip().startswith("#"):
            current = None
            continue
        if TARGETS_LINE.match(line):
            current = (number, [])
            found.append(current)
        if current is not None:
            current[1].extend((number, word) for word in BACKTICKS.findall(line))
    return found


def check_targets(tree):
    findings = []
    targets, aliases = cmake_targets(tree)
    names_of = {name: {name} for name in targets}
    for alias, real in aliases.items():
        names_of.setdefault(real, {real}).add(alias)
    known = set(targets) | set(aliases)
    readme_dirs = {os.path.dirname(p) for p in tree.files if os.path.basename(p) == "README.md"
                   and os.path.dirname(p) + ("/" if os.path.dirname(p) else "") + "CMakeLists.txt"
                   in tree.file_set}
    owed = {}  # README folder -> [(target, CMakeLists path, line)]
    for name, (cmake, line) in sorted(targets.items()):
        if exempt(name, cmake):
            continue
        folder = os.path.dirname(cmake)
        while folder not in readme_dirs and folder:
            folder = os.path.dirname(folder)
        if folder in readme_dirs:
            owed.setdefault(folder, []).append((name, cmake, line))
    for folder in sorted(readme_dirs):
        readme = os.path.join(folder, "README.md")
        paragraphs = targets_paragraphs(tree.text(readme) or "")
        listed = set()
        for _, words in paragraphs:
            for line, word in words:
                if not TARGET_NAME.match(word) or word not in known:
                    findings.append(f"{readme}:{line}: `{word}` in the Targets paragraph is "
                                    "not a CMake target or alias of the repository")
                listed.add(word)
        where = paragraphs[0][0] if paragraphs else 1
        for name, cmake, line in owed.get(folder, []):
            if not names_of.get(name, {name}) & listed:
                findings.append(f"{readme}:{where}: the Targets paragraph does not list "
                                f"`{name}` ({cmake}:{line})")
    return findings

# --- b. repository paths named in Markdown ---------------------------------------------------

PLACEHOLDER = re.compile(r"[*?<>$]|\.\.\.|…|\{[^,{}]*\}")
BRACES = re.compile(r"\{([^{}]*,[^{}]*)\}")
PLACEHOLDER_NAME = re.compile(r"(?:^|/)(?:FILE|NAME|PATH|DIR)(?:\.\w+)?/?$")
LINE_SUFFIX = re.compile(r"(?::\d+)+$")


def expand_braces(word):
    match = BRACES.search(word)
    if not match:
        return [word]
    out = []
    for choice in match.group(1).split(","):
        out.extend(expand_braces(word[:match.start()] + choice + word[match.end():]))
    return out


def path_exists(tree, folder, path):
    want_dir = path.endswith("/")
    path = path.rstrip("/")
    return (tree.exists(path, want_dir)
            or (folder and tree.exists(os.path.join(folder, path), want_dir)))


def candidate_words(tree, span):
    """The words of one backticked span that name a repository path."""
    for word in span.split():
        word = word.strip("\"'(),;[]")
        word = word.split("=", 1)[1] if word.startswith("-") and "=" in word else word
        word = LINE_SUFFIX.sub("", word.split("#", 1)[0]).rstrip(".:")
        first = word.split("/", 1)[0]
        if first in ("build", "") or first not in tree.top_level:
            if not word.startswith(("./", "../")):
                continue
        elif "/" not in word and first not in tree.file_set:
            continue
        yield word


def code_spans(text):
    """(line, text) of each code span outside code blocks; a span wrapped over lines is
    joined (directly after a '/' or ',', as in a wrapped brace list; else by a space) and
    reported at the line it starts on."""
    pending = None  # (line, text so far) of a span a line before opened
    for number, line, in_fence in markdown_lines(text):
        if in_fence or not line.strip():
            pending = None
            continue
        rest = line
        if pending is not None:
            if "`" not in rest:
                pending = (pending[0], join_wrapped(pending[1], rest.strip()))
                continue
            close = rest.index("`")
            yield pending[0], join_wrapped(pending[1], rest[:close].strip())
            rest, pending = rest[close + 1:], None
        yield from ((number, span) for span in BACKTICKS.findall(rest))
        leftover = BACKTICKS.sub("", rest)
        if "`" in leftover:
            pending = (number, leftover[leftover.index("`") + 1:].strip())


def join_wrapped(first, second):
    return first + second if first.endswith(("/", ",")) else f"{first} {second}"


def check_paths(tree):
    findings = []
    for md in tree.files:
        if not md.endswith(".md"):
            continue
        folder = os.path.dirname(md)
        for number, span in code_spans(tree.text(md) or ""):
            for word in candidate_words(tree, span):
                for path in expand_braces(word):
                    if PLACEHOLDER.search(path) or PLACEHOLDER_NAME.search(path):
                        continue
                    if not path_exists(tree, folder, path):
                        findings.append(f"{md}:{number}: `{path}` does not exist")
        for number, line, in_fence in markdown_lines(tree.text(md) or ""):
            if in_fence:
                continue
            for target in LINK.findall(BACKTICKS.sub("", line)):
                if re.match(r"^[a-z][a-z0-9+.-]*:|^#|^/", target) or PLACEHOLDER.search(target):
                    continue
                path = target.split("#", 1)[0]
                want_dir = path.endswith("/")
                if not tree.exists(os.path.join(folder, path.rstrip("/")), want_dir):
                    findings.append(f"{md}:{number}: link `{target}` does not exist "
                                    f"relative to {folder or 'the root'}/")
    return findings

# --- c. § references -------------------------------------------------------------------------

HEADING = re.compile(r"^#{1,6}\s+(?:§\s?)?(\d+(?:\.\d+)*)\.?(?:\s|$)")
NUMBER = r"\d+(?:\.\d+)*"
RANGE = rf"{NUMBER}(?:\s?[–-]\s?§?{NUMBER})?"
ONE_REF = rf"(?:§§\s?{RANGE}(?:(?:,|\s+and)\s?{RANGE})*|§\s?{RANGE})"
CHAIN = rf"{ONE_REF}(?:(?:,|;|\s+and|\s+or)\s*{ONE_REF})*"
FILE_REF = re.compile(rf"(?P<file>[\w./-]*\w\.md|\b[A-Z][A-Z]+)`?\)?\s?(?P<refs>{CHAIN})")
ANY_REF = re.compile(CHAIN)
FILE_TAIL = re.compile(r"([\w./-]*\w\.md)`?\)?\s*$")
COMMENT_LEAD = re.compile(r"^\s*(?://+|#+|\*|/\*+|--)?\s*\(?$")
PAPER_TAG = re.compile(r"\[[A-Za-z][A-Za-z0-9]*\](?!\()")
ABBREVIATIONS = {"Alg", "Eq", "Eqs", "App", "Def", "Fig", "Sec", "Thm", "cf", "vs", "al",
                 "e.g", "i.e", "No", "resp", "Prop", "Lemma"}


def numbers_in(refs):
    """Every section number a reference chain names (both ends of a range)."""
    return [n.rstrip(".") for n in re.findall(NUMBER, refs)]


def sections(text):
    found = set()
    for _, line, in_fence in markdown_lines(text):
        match = None if in_fence else HEADING.match(line)
        if match:
            parts = match.group(1).split(".")
            for i in range(1, len(parts) + 1):
                found.add(".".join(parts[:i]))
    return found


def resolve_md(tree, referrer, name):
    """The repository path a `NAME.md` or `dir/NAME.md` reference means, or None."""
    folder = os.path.dirname(referrer)
    if "/" not in name:
        options = [os.path.join("docs", name), name, os.path.join(folder, name)]
    else:
        options = [name, os.path.join(folder, name)]
    for option in options:
        option = os.path.normpath(option)
        if option in tree.file_set:
            return option
    return None


def sentence_start(text):
    """Where the last sentence of `text` starts (abbreviations like `Alg.` do not end one)."""
    start = 0
    for match in re.finditer(r"[.!?]\s+(?=[A-Z`*(\[])", text):
        word = re.search(r"([\w.]+)$", text[:match.start()])
        if word and word.group(1) in ABBREVIATIONS:
            continue
        start = match.end()
    return start


def cites_paper(block_text, table_header):
    """Whether a bare § at the end of `block_text` cites a paper (docs/REFERENCES.md §2)."""
    if table_header and PAPER_TAG.search(table_header):
        return True
    return bool(PAPER_TAG.search(block_text[sentence_start(block_text):]))


def markdown_blocks(text):
    """Yield (line number, line, text of its block before it, table header cells or None,
    inside a code block) for each line: a block is a paragraph or list item; in a table each
    cell is its own block and its header is the table's first row."""
    before, header = "", None
    for number, line, in_fence in markdown_lines(text):
        stripped = line.strip()
        if in_fence or not stripped or stripped.startswith("#"):
            before, header = "", None
            yield number, line, "", None, in_fence
            continue
        if stripped.startswith("|"):
            cells = stripped.strip("|").split("|")
            if header is None:
                header = cells
            yield number, line, "", header, False
            continue
        header = None
        if re.match(r"^\s*(?:[-*+]|\d+\.)\s", line):
            before = ""
        yield number, line, before, None, False
        before += " " + stripped


def check_sections(tree):
    findings = []
    cache = {}

    def section_set(path):
        if path not in cache:
            cache[path] = sections(tree.text(path) or "")
        return cache[path]

    def check(where, target, refs, shown):
        known = section_set(target)
        for number in numbers_in(refs):
            if number not in known and shown:
                findings.append(f"{where}: {shown} §{number}: {target} has no section {number}")
            elif number not in known:
                findings.append(f"{where}: §{number} (bare, so this file's) names no section "
                                "of it; a paper's section follows its tag: `[AE] §4.1`")

    for path in tree.files:
        text = tree.text(path)
        if not text or "§" not in text:
            continue
        is_md = path.endswith(".md")
        blocks = markdown_blocks(text) if is_md else (
            (n, line, "", None, False) for n, line in enumerate(text.splitlines(), 1))
        previous = ""
        for number, line, before, header, in_fence in blocks:
            if "§" not in line:
                previous = line
                continue
            where = f"{path}:{number}"
            # In Markdown, a § inside backticks is an example, not a reference.
            covered = [m.span() for m in BACKTICKS.finditer(line)] if is_md else []
            for match in FILE_REF.finditer(line):
                name = match.group("file")
                if any(s <= match.start("refs") < e for s, e in covered):
                    continue
                covered.append((match.start("refs"), match.end("refs")))
                if not name.endswith(".md"):  # `MODELS §2` for docs/MODELS.md
                    if f"docs/{name}.md" not in tree.file_set:
                        covered.pop()  # `SCO §4`: not a file of ours; a bare § below
                        continue
                    name += ".md"
                target = resolve_md(tree, path, name)
                if target is None:
                    findings.append(f"{where}: `{match.group('file')}` in a § reference "
                                    "does not exist")
                    continue
                check(where, target, match.group("refs"), match.group("file"))
            context, previous = (before if is_md else previous), line
            for match in ANY_REF.finditer(line):
                if any(s <= match.start() < e for s, e in covered):
                    continue
                prefix = line[:match.start()]
                tail = FILE_TAIL.search(context) if COMMENT_LEAD.match(prefix) else None
                if tail:  # `docs/X.md` at the end of the line before, wrapped
                    target = resolve_md(tree, path, tail.group(1))
                    if target is None:
                        findings.append(f"{where}: `{tail.group(1)}` in a § reference "
                                        "does not exist")
                    else:
                        check(where, target, match.group(0), tail.group(1))
                    continue
                if not is_md or in_fence:
                    continue
                cell_header = None
                if header is not None:
                    column = prefix.strip().lstrip("|").count("|")
                    cell_header = header[column] if column < len(header) else ""
                    prefix = prefix.rsplit("|", 1)[-1]
                if cites_paper(before + " " + prefix, cell_header):
                    continue
                check(where, path, match.group(0), "")
    return findings

# --- main ------------------------------------------------------------------------------------


def run_checks(tree):
    return check_targets(tree) + check_paths(tree) + check_sections(tree)


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    findings = run_checks(RepoTree(argv[1]))
    for finding in findings:
        print(finding)
    if findings:
        print(f"docs_drift: {len(findings)} finding(s); conventions: tests/README.md",
              file=sys.stderr)
        return 1
    print("docs_drift: no drift")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""doclinks.py — every relative link of the README and docs/ resolves.

Usage: tests/doclinks.py [FILE.md ...]   (default: README.md and the pages of docs/)

A link [text](path) or [text](path#anchor) whose path is relative must name a file or directory of
the repository, and its anchor a heading of that file (GitHub's slugs: lower case, punctuation other
than '-' and '_' dropped, spaces as '-'; an <a id="..."> counts too). Links inside code blocks and
code spans are not links. Exits 1 and lists every broken link as FILE:LINE: LINK: why.
"""
import os
import re
import subprocess
import sys

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
ANCHOR = re.compile(r'<a id="([^"]+)"')


def slug(text):
    text = re.sub(r"`|\*|<[^>]+>", "", text).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def prose(path):
    """Yields (line number, line) outside fenced code blocks, code spans removed."""
    fenced = False
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.lstrip().startswith("```"):
                fenced = not fenced
                continue
            if not fenced:
                yield n, re.sub(r"`[^`]*`", "", line)


def anchors(path, cache={}):
    if path not in cache:
        found, seen = set(), {}
        for _, line in prose(path):
            m = HEADING.match(line)
            if m:
                s = slug(m.group(2))
                k = seen.get(s, 0)
                seen[s] = k + 1
                found.add(s if k == 0 else "%s-%d" % (s, k))
            found.update(ANCHOR.findall(line))
        cache[path] = found
    return cache[path]


def main(argv):
    root = subprocess.check_output(["git", "rev-parse", "--show-toplevel"], text=True).strip()
    os.chdir(root)
    files = argv or ["README.md"] + sorted(  # docs/api holds the reference's templates, not pages
        f for f in subprocess.check_output(["git", "ls-files", "docs/*.md"], text=True).split()
        if f.count("/") == 1)
    bad = []
    for md in files:
        for n, line in prose(md):
            for target in LINK.findall(line):
                if re.match(r"^[a-z]+:", target):  # https:, mailto:, ...
                    continue
                path, _, anchor = target.partition("#")
                dest = os.path.normpath(os.path.join(os.path.dirname(md), path)) if path else md
                if not os.path.exists(dest):
                    bad.append("%s:%d: %s: no file %s" % (md, n, target, dest))
                elif anchor and dest.endswith(".md") and anchor not in anchors(dest):
                    bad.append("%s:%d: %s: %s has no heading #%s" % (md, n, target, dest, anchor))
    for b in bad:
        print(b, file=sys.stderr)
    if bad:
        print("doclinks: %d broken links; fix the link or the heading it names" % len(bad), file=sys.stderr)
        return 1
    print("doclinks: every relative link of %d files resolves" % len(files))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""Runs the code snippets of a Markdown file (docs/clients.md), so that they stay runnable.

    $CT_PYTHON tests/clients/doc_snippets.py docs/clients.md path/to/libctensor.so

Every fenced block whose info string is one of these languages is one complete program:
  c       compiled with `cc -std=c99 -Wall -Wextra -Werror -I include ... -ldl`, then run
  python  run with this interpreter (so run it with one that has cffi: build/venv)
  lua     run with luajit
  ruby    run with ruby (the ffi gem)
  perl    run with perl (FFI::Platypus)
  julia   parsed with tree-sitter-julia (bindings/julia/check/julia_check.py, this
          interpreter): there is no Julia runtime here
each with CTENSOR_LIB set to the library.  Other blocks (sh, ...) are not run.  Exits 1 if
a snippet fails, or if one of these languages has no snippet (a section dropped by
mistake would otherwise go unnoticed).
"""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))


def blocks(md):
    """[(language, first line number, code)] of the fenced blocks."""
    out, lang, start, buf = [], None, 0, []
    for n, line in enumerate(md.split("\n"), 1):
        m = re.match(r"^```\s*([\w+-]*)\s*$", line)
        if m and lang is None:
            lang, start, buf = m.group(1) or "text", n + 1, []
        elif line.startswith("```") and lang is not None:
            out.append((lang, start, "\n".join(buf) + "\n"))
            lang = None
        elif lang is not None:
            buf.append(line)
    return out


# a missing tool fails its snippets with the way to install it (scripts/deps.sh test does)
INSTALL = {"cc": "apt-get install gcc", "luajit": "apt-get install luajit", "ruby": "apt-get install ruby ruby-ffi",
           "perl": "apt-get install perl libffi-platypus-perl"}


def run(cmd, env):
    try:
        r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    except FileNotFoundError:
        print("     | missing: %s (%s)" % (cmd[0], INSTALL.get(cmd[0], "install it")))
        return False
    sys.stdout.write("".join("     | " + ln + "\n" for ln in (r.stdout + r.stderr).splitlines()))
    return r.returncode == 0


def run_c(src, env):
    exe = os.path.splitext(src)[0]
    return run(["cc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-I", os.path.join(REPO, "include"),
                "-o", exe, src, "-ldl"], env) and run([exe], env)


def parse_julia(src, env):
    return run([sys.executable, os.path.join(REPO, "bindings", "julia", "check", "julia_check.py"), src], env)


# info string -> (file extension, how to check a snippet written to such a file)
RUNNERS = {
    "c": ("c", run_c),
    "python": ("py", lambda src, env: run([sys.executable, src], env)),
    "lua": ("lua", lambda src, env: run(["luajit", src], env)),
    "ruby": ("rb", lambda src, env: run(["ruby", src], env)),
    "perl": ("pl", lambda src, env: run(["perl", src], env)),
    "julia": ("jl", parse_julia),
}


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: doc_snippets.py FILE.md path/to/libctensor.so")
    md_path, lib = sys.argv[1], os.path.abspath(sys.argv[2])
    env = dict(os.environ, CTENSOR_LIB=lib)
    passed = failed = 0
    with open(md_path, encoding="utf-8") as f:
        snippets = [b for b in blocks(f.read()) if b[0] in RUNNERS]
    with tempfile.TemporaryDirectory() as tmp:
        for i, (lang, line, code) in enumerate(snippets):
            where = "%s:%d (%s)" % (os.path.relpath(md_path, REPO), line, lang)
            ext, runner = RUNNERS[lang]
            src = os.path.join(tmp, "snippet%d.%s" % (i, ext))
            with open(src, "w", encoding="utf-8") as f:
                f.write(code)
            ok = runner(src, env)
            print("  %s %s" % ("ok  " if ok else "FAIL", where + (" parses (no Julia runtime here)" if lang == "julia" else " runs")))
            passed += ok
            failed += not ok
    for lang in sorted(set(RUNNERS) - {b[0] for b in snippets}):
        print("  FAIL no %s snippet in %s" % (lang, os.path.relpath(md_path, REPO)))
        failed += 1
    print("snippets: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

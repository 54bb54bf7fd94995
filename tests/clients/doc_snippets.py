#!/usr/bin/python3
"""Runs the code snippets of a Markdown file (docs/clients.md), so that they stay runnable.

    /usr/bin/python3 tests/clients/doc_snippets.py docs/clients.md path/to/libctensor.so

Every fenced block whose info string is c, python, js or julia is one complete program:
  c       compiled with `cc -std=c99 -Wall -Werror -I include ... -ldl`, then run
  python  run with /usr/bin/python3
  js      run with node, next to tests/clients/node/node_modules (koffi)
  julia   parsed with tree-sitter-julia (bindings/julia/check/julia_check.mjs): no Julia here
each with CTENSOR_LIB set to the library.  Other blocks (sh, ...) are not run.  Exits 1 if
a snippet fails.
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


def run(cmd, env, cwd=None):
    r = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, timeout=120)
    sys.stdout.write("".join("     | " + ln + "\n" for ln in (r.stdout + r.stderr).splitlines()))
    return r.returncode == 0


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: doc_snippets.py FILE.md path/to/libctensor.so")
    md_path, lib = sys.argv[1], os.path.abspath(sys.argv[2])
    env = dict(os.environ, CTENSOR_LIB=lib)
    passed = failed = 0
    with open(md_path, encoding="utf-8") as f:
        snippets = [b for b in blocks(f.read()) if b[0] in ("c", "python", "js", "julia")]
    with tempfile.TemporaryDirectory() as tmp:
        os.symlink(os.path.join(REPO, "tests", "clients", "node", "node_modules"),
                   os.path.join(tmp, "node_modules"))
        for i, (lang, line, code) in enumerate(snippets):
            where = "%s:%d (%s)" % (os.path.relpath(md_path, REPO), line, lang)
            ext = {"c": "c", "python": "py", "js": "mjs", "julia": "jl"}[lang]
            src = os.path.join(tmp, "snippet%d.%s" % (i, ext))
            with open(src, "w", encoding="utf-8") as f:
                f.write(code)
            if lang == "c":
                exe = os.path.join(tmp, "snippet%d" % i)
                ok = run(["cc", "-std=c99", "-Wall", "-Wextra", "-Werror", "-I",
                          os.path.join(REPO, "include"), "-o", exe, src, "-ldl"], env) and run([exe], env)
            elif lang == "python":
                ok = run(["/usr/bin/python3", src], env)
            elif lang == "js":
                ok = run(["node", src], env, cwd=tmp)
            else:
                ok = run(["node", os.path.join(REPO, "bindings", "julia", "check", "julia_check.mjs"), src], env)
            print("  %s %s" % ("ok  " if ok else "FAIL", where + (" parses (no Julia runtime here)" if lang == "julia" else " runs")))
            passed += ok
            failed += not ok
    print("snippets: %d passed, %d failed" % (passed, failed))
    return 1 if failed or not snippets else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Runs a seed example and compares what it prints with its expected-output file.

    check_output.py EXPECTED_FILE [--update] -- COMMAND [ARG ...]

Addresses and storage ids differ from run to run; both sides are normalised first
(normalize()): "0x55d0c1a2" -> "0xADDR", "id 17" -> "id N", "ids 3 and 9" -> "ids N and N".
Exit status 0 if they match, 1 with a unified diff if not.  --update rewrites EXPECTED_FILE.
Used by the ctest "seed_examples_*" (examples/CMakeLists.txt) and tests/python/test_examples.py.
"""
import difflib
import re
import subprocess
import sys

_RULES = [
    (re.compile(r"0x[0-9a-f]+"), "0xADDR"),
    (re.compile(r"\bids \d+ and \d+"), "ids N and N"),
    (re.compile(r"\bid \d+"), "id N"),
]


def normalize(text):
    for pattern, replacement in _RULES:
        text = pattern.sub(replacement, text)
    return text


def main(argv):
    if "--" not in argv or argv.index("--") < 1:
        print(__doc__, file=sys.stderr)
        return 2
    sep = argv.index("--")
    options, command = argv[:sep], argv[sep + 1:]
    expected_path = options[0]
    run = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if run.returncode != 0:
        print(f"{command} exited with {run.returncode}\n{run.stderr}", file=sys.stderr)
        return 1
    actual = normalize(run.stdout)
    if "--update" in options[1:]:
        with open(expected_path, "w", encoding="utf-8") as f:
            f.write(actual)
        return 0
    with open(expected_path, encoding="utf-8") as f:
        expected = f.read()
    if actual == expected:
        return 0
    sys.stdout.writelines(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                               expected_path, "actual output"))
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

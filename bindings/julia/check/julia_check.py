#!/usr/bin/env python3
"""Checks the Julia package without a Julia runtime (none exists for Debian, PyPI or npm).

    $CT_PYTHON julia_check.py <dir-or-file.jl>... [--ccalls out.json]

Needs the PyPI packages tree-sitter (0.26) and tree-sitter-julia (0.23), as installed in
build/venv from requirements.txt.

1. Every .jl file parses with tree-sitter-julia: no ERROR and no MISSING node.
2. Every `Mod.name` reference from the hand-written files into the generated raw layer
   (`LibCTensor.x` or its alias `L.x`) names something LibCTensor.jl defines.
3. Every `ccall` site is extracted (function name, library, return type, argument types,
   number of values passed) into out.json for check_ccalls.py, which compares them with
   the header and with the symbols the library exports.  `@ccall` and ccalls through a
   function pointer cannot be checked that way, so they are reported as failures.
Exits 1 if a check fails; prints what it checked.
"""
import json
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree

try:
    import tree_sitter_julia
    from tree_sitter import Language, Parser
except ImportError as e:  # say which interpreter lacks what, not a bare traceback
    sys.stderr.write("julia_check.py: %s (interpreter %s): install tree-sitter and tree-sitter-julia "
                     "(requirements.txt, build/venv), or set CT_PYTHON to an interpreter that has "
                     "them\n" % (e, sys.executable))
    sys.exit(2)


# ---- tree helpers --------------------------------------------------------------------------

def walk(node):
    """Every node under node, node first, in document order (pre-order), without recursion."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(n.children))


def text(node):
    return node.text.decode("utf-8")


def squash(s):
    return re.sub(r"\s+", "", s)


def where(path, node):
    return "%s:%d:%d" % (path, node.start_point[0] + 1, node.start_point[1] + 1)


def named(node):
    return list(node.named_children)


class Checker:
    def __init__(self):
        self.failures = 0
        self.parser = Parser(Language(tree_sitter_julia.language()))
        self.trees = {}    # path -> tree
        self.sources = {}  # path -> str

    def fail(self, msg):
        self.failures += 1
        print("  FAIL " + msg)

    # ---- 1. parse ------------------------------------------------------------------------
    def parse(self, files):
        for path in files:
            with open(path, encoding="utf-8") as f:
                src = f.read()
            tree = self.parser.parse(src.encode("utf-8"))
            self.trees[path] = tree
            self.sources[path] = src
            lines = src.split("\n")
            bad = 0
            for n in walk(tree.root_node):
                if n.type == "ERROR" or n.is_missing:
                    bad += 1
                    if bad <= 5:
                        line = lines[n.start_point[0]] if n.start_point[0] < len(lines) else ""
                        self.fail("%s: %s: %s" % (where(path, n),
                                                  "missing " + n.type if n.is_missing else "syntax error",
                                                  line.strip()))
            if bad == 0:
                print("  ok   parses: " + path)

    # ---- 2. references into the raw layer --------------------------------------------------
    def raw_layer_refs(self, raw_file):
        defined = set()
        for n in walk(self.trees[raw_file].root_node):
            if n.type == "function_definition":
                sig = next((c for c in named(n) if c.type == "signature"), None)
                call = sig and next((c for c in named(sig) if c.type == "call_expression"), None)
                if call:
                    defined.add(text(call.named_child(0)))
            elif n.type == "const_statement":
                asg = next((c for c in named(n) if c.type == "assignment"), None)
                if asg:
                    defined.add(text(asg.named_child(0)))
            elif n.type == "assignment" and n.parent is not None and n.parent.type == "module_definition":
                lhs = n.named_child(0)
                if lhs.type == "call_expression":
                    defined.add(text(lhs.named_child(0)))
        refs = 0
        aliases = {"LibCTensor", "L"}
        for path, tree in self.trees.items():
            if path == raw_file:
                continue
            for n in walk(tree.root_node):
                if n.type != "field_expression":
                    continue
                value = n.named_child(0)
                field = n.named_child(n.named_child_count - 1)
                if value is None or field is None or text(value) not in aliases or field.type != "identifier":
                    continue
                refs += 1
                if text(field) not in defined:
                    self.fail("%s: %s: LibCTensor.jl defines no %s" % (where(path, n), text(n), text(field)))
        print("  ok   %d references to LibCTensor checked against its %d definitions" % (refs, len(defined)))
        return defined

    # ---- 3. ccall sites --------------------------------------------------------------------
    def ccall_sites(self):
        ccalls = []
        for path, tree in self.trees.items():
            for n in walk(tree.root_node):
                if n.type == "macrocall_expression" and re.match(r"^@ccall\b", text(n)):
                    self.fail("%s: @ccall cannot be checked against the header: use "
                              "ccall((:name, libctensor()), ...)" % where(path, n))
                    continue
                if n.type != "call_expression" or n.named_child(0) is None or text(n.named_child(0)) != "ccall":
                    continue
                argl = next((c for c in named(n) if c.type == "argument_list"), None)
                a = [c for c in named(argl) if c.type != "comment"] if argl else []
                site = {"file": path, "line": n.start_point[0] + 1, "text": re.sub(r"\s+", " ", text(n))}
                spec = a[0] if a else None
                if (spec is None or spec.type != "tuple_expression" or spec.named_child_count != 2
                        or spec.named_child(0).type != "quote_expression"):
                    self.fail("%s: ccall without a (:name, library) tuple cannot be checked: %s"
                              % (where(path, n), site["text"][:80]))
                    continue
                site["name"] = re.sub(r"^:", "", text(spec.named_child(0)))
                site["library"] = text(spec.named_child(1))
                site["ret"] = squash(text(a[1])) if len(a) > 1 else ""
                types = a[2] if len(a) > 2 else None
                if types is None or (types.type != "tuple_expression"
                                     and not (types.type == "parenthesized_expression" and types.named_child_count == 0)
                                     and text(types) != "()"):
                    self.fail("%s: argument types of %s are not a literal tuple" % (where(path, n), site["name"]))
                    continue
                site["argtypes"] = [squash(text(c)) for c in named(types) if c.type != "comment"]
                site["nvalues"] = len(a) - 3
                ccalls.append(site)
        return ccalls


def jl_files(p):
    if os.path.isdir(p):
        out = []
        for e in sorted(os.listdir(p)):
            if e == "node_modules":
                continue
            out.extend(jl_files(os.path.join(p, e)))
        return out
    return [p] if p.endswith(".jl") else []


def main(argv):
    ccalls_out = None
    roots = []
    i = 0
    while i < len(argv):
        if argv[i] == "--ccalls":
            i += 1
            ccalls_out = argv[i] if i < len(argv) else None
        else:
            roots.append(argv[i])
        i += 1
    if not roots:
        sys.stderr.write("usage: julia_check.py <dir-or-file.jl>... [--ccalls out.json]\n")
        return 2
    files = [f for r in roots for f in jl_files(r)]

    c = Checker()
    c.parse(files)

    raw_file = next((f for f in files if os.path.basename(f) == "LibCTensor.jl"), None)
    if raw_file:
        c.raw_layer_refs(raw_file)

    ccalls = c.ccall_sites()
    print("  ok   %d ccall sites extracted%s" % (len(ccalls), (" to " + ccalls_out) if ccalls_out else ""))
    if ccalls_out:
        with open(ccalls_out, "w", encoding="utf-8") as f:
            json.dump(ccalls, f, indent=1)

    print("julia parse: %d files, %d failures" % (len(files), c.failures))
    return 1 if c.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""Checks the Julia package without a Julia runtime (none exists for Debian, PyPI or npm).

    $CT_PYTHON julia_check.py [--package PKGDIR] <dir-or-file.jl>... [--ccalls out.json]

Needs the PyPI packages tree-sitter (0.26) and tree-sitter-julia (0.23), as installed in
build/venv from requirements.txt.

1. Every .jl file parses with tree-sitter-julia: no ERROR and no MISSING node.
2. Every `Mod.name` reference from the hand-written files into the generated raw layer
   (`LibCTensor.x` or its alias `L.x`) names something LibCTensor.jl defines.
3. Every `ccall` site is extracted (function name, library, return type, argument types,
   number of values passed) into out.json for check_ccalls.py, which compares them with
   the header and with the symbols the library exports.  `@ccall` and ccalls through a
   function pointer cannot be checked that way, so they are reported as failures.  A ccall
   of the Julia runtime (a bare symbol) is allowed for the names in RUNTIME_CCALLS only.
With --package DIR (the CTensor package), also the checks of issue 22:
4. Exports: no name the package exports is exported by Base, Core or a standard library
   (julia_names.py: after `using CTensor` its uses would be UndefVarErrors), or is too
   generic to export; every exported name is defined.
5. Shadowing: no top-level function of the package has the name of a Base export unless
   written `Base.name` (else it is a new function that hides Base's inside the package).
6. Name resolution: every name the package, its extensions, the tests, the seed examples
   and the README's julia blocks use is defined there, imported by their own
   `using`/`import` lines, or exported by Base/Core/a module they use; `CTensor.x` names
   something CTensor has.  The README's blocks are resolved together, as a reader runs them,
   without the tests' imports.
7. The README's julia blocks are the tests' code: each block's lines (its `using` lines
   apart) are lines of test/runtests.jl, in order, and its `using` lines are there too.
8. The rules of issue 22 that can be read from the source: element memory is written
   directly only where allowed (writes go through the library); a keep-alive finalizer is
   attached to an Array made by unsafe_wrap only in the Julia 1.10 branch (on 1.11 the
   memory owns the bytes); every mutable struct holding a handle defines deepcopy and
   serialization; no Base.cconvert/unsafe_convert to Ptr{Cvoid} for a package type (a
   handle converts to its own pointer type); every library call that may allocate goes
   through the out-of-memory retry; pointer/unsafe_convert of a Tensor check for closed and
   read-only tensors; Base.stride is not redefined; the raw layer's __init__ tolerates a
   missing library while output is generated; Project.toml has [compat] for julia and
   every dependency, and a file for every extension.
The scopes of the name-resolution pass are flat (a name bound anywhere in a file counts as
bound in all of it): it finds names that resolve nowhere, not every scoping error.
Exits 1 if a check fails; prints what it checked.
"""
import json
import os
import re
import sys
import tomllib

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "gen"))
import julia_names as JN  # noqa: E402

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


# ccall((:name, ...)) without a library calls the Julia runtime: allowed only for these.
RUNTIME_CCALLS = {
    "jl_generating_output",  # Base.generating_output() before Julia 1.11
}


class Checker:
    def __init__(self):
        self.failures = 0
        self.runtime_ccalls = 0
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
            elif n.type == "struct_definition":
                head = next((c for c in named(n) if c.type == "type_head"), None)
                if head is not None and head.named_child(0).type == "identifier":
                    defined.add(text(head.named_child(0)))
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
                if spec is not None and spec.type == "quote_expression":
                    # A symbol without a library: a function of the Julia runtime itself.
                    name = text(spec)[1:]
                    if name in RUNTIME_CCALLS:
                        self.runtime_ccalls += 1
                    else:
                        self.fail("%s: ccall of the Julia runtime's %s, which is not in the checker's "
                                  "list of runtime functions known to be safe (RUNTIME_CCALLS)"
                                  % (where(path, n), name))
                    continue
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


# ---- names: binders, uses, imports -----------------------------------------------------------
#
# A flat, over-approximating view of Julia's scopes, enough to find names that resolve
# nowhere: every name a file (or a set of files) binds anywhere counts as defined everywhere
# in it.  What it catches is what a reader's first run would hit: a name nobody defines or
# imports (an unexported LibCTensor function used unqualified, a name two modules export).

SCOPE_TYPES = {"function_definition", "macro_definition", "arrow_function_expression", "do_clause",
               "let_statement", "for_statement", "while_statement", "struct_definition",
               "comprehension_expression", "generator", "try_statement"}

ALWAYS_KNOWN = {"Base", "Core", "Main", "include", "eval", "ccall", "cglobal", "new", "end", "_",
                "true", "false", "__init__", "__module__", "__source__"}


def ancestors(node):
    p = node.parent
    while p is not None:
        yield p
        p = p.parent


def in_quote(node):
    for a in ancestors(node):
        if a.type == "interpolation_expression":
            return False
        if a.type == "quote_expression":
            return True
    return False


def is_toplevel(node):
    """No scope-introducing construct between node and its file (or module)."""
    for a in ancestors(node):
        if a.type in SCOPE_TYPES:
            return False
        if a.type == "assignment" and a.named_child(0) is not None and \
                a.named_child(0).type in ("call_expression", "where_expression"):
            # inside a short function definition: only its name is top-level
            lhs = a.named_child(0)
            if not (node.start_byte >= lhs.start_byte and node.end_byte <= lhs.end_byte):
                return False
    return True


class Names:
    """Binders, uses, macro uses, imports and qualified references of some trees."""

    def __init__(self):
        self.binders = set()
        self.toplevel = set()          # names defined at module level (for `Mod.name`)
        self.macros = set()            # "@name" defined here
        self.uses = []                 # (name, path, node)
        self.macro_uses = []           # ("@name", path, node)
        self.qualified = []            # (module, name, path, node)
        self.using_all = []            # (module, path, node): `using M`
        self.imported = set()          # names brought in by `using M: x`, `import M`, ...
        self.exports = []              # (name, path, node)
        self.includes = []             # (path, included file)

    # -- binders --
    def param(self, n):
        t = n.type
        if t == "identifier":
            self.binders.add(text(n))
        elif t == "typed_expression":
            if not text(n).lstrip().startswith("::") and n.named_child_count:
                self.param(n.named_child(0))
        elif t in ("named_argument", "splat_expression"):
            if n.named_child_count:
                self.param(n.named_child(0))
        elif t in ("tuple_expression", "parenthesized_expression", "argument_list", "open_tuple",
                   "macro_argument_list", "macrocall_expression"):
            for c in named(n):
                self.param(c)

    def lhs(self, n):
        t = n.type
        if t == "identifier":
            self.binders.add(text(n))
        elif t == "typed_expression":
            if not text(n).lstrip().startswith("::") and n.named_child_count:
                self.lhs(n.named_child(0))
        elif t in ("tuple_expression", "parenthesized_expression", "open_tuple", "splat_expression"):
            for c in named(n):
                self.lhs(c)
        elif t == "call_expression":
            callee = n.named_child(0)
            if callee is not None and callee.type == "identifier":
                self.binders.add(text(callee))
            elif callee is not None and callee.type == "parenthesized_expression":
                self.param(callee)
            for c in named(n)[1:]:
                if c.type == "argument_list":
                    self.param(c)
        elif t == "where_expression":
            self.lhs(n.named_child(0))
            for c in named(n)[1:]:
                self.type_params(c)

    def type_params(self, n):
        if n.type == "identifier":
            self.binders.add(text(n))
        elif n.type == "curly_expression":
            for c in named(n):
                self.type_params(c)
        elif n.type == "binary_expression" and n.named_child_count:
            self.type_params(n.named_child(0))

    def type_head(self, n):
        head = n.named_child(0)
        if head is None:
            return
        if head.type == "binary_expression":
            head = head.named_child(0)
        if head.type == "identifier":
            self.binders.add(text(head))
            return text(head)
        if head.type == "parametrized_type_expression":
            name = head.named_child(0)
            self.binders.add(text(name))
            for c in named(head)[1:]:
                self.type_params(c)
            return text(name)
        return None

    def struct_fields(self, n):
        for c in named(n):
            if c.type == "identifier":
                self.binders.add(text(c))
            elif c.type == "typed_expression" and c.named_child_count:
                self.lhs(c.named_child(0))
            elif c.type == "macrocall_expression":   # @atomic field::T
                for m in named(c):
                    if m.type == "macro_argument_list":
                        self.struct_fields(m)

    # -- imports --
    def import_stmt(self, n, path):
        bare_using = n.type == "using_statement"
        for c in named(n):
            if c.type == "identifier":                    # using M / import M
                self.imported.add(text(c))
                if bare_using:
                    self.using_all.append((text(c), path, c))
            elif c.type == "selected_import":             # using M: a, b as c
                for k in named(c)[1:]:
                    if k.type == "identifier":
                        self.imported.add(text(k))
                    elif k.type == "import_alias" and k.named_child_count >= 2:
                        self.imported.add(text(k.named_child(k.named_child_count - 1)))
                    elif k.type == "macro_identifier":
                        self.imported.add(text(k))
            elif c.type == "import_alias" and c.named_child_count >= 2:  # import M as N
                self.imported.add(text(c.named_child(c.named_child_count - 1)))

    # -- the walk --
    def add(self, path, root):
        for n in walk(root):
            t = n.type
            if t == "assignment" and n.named_child_count:
                self.lhs(n.named_child(0))
                if is_toplevel(n):
                    self._toplevel_lhs(n.named_child(0))
            elif t in ("named_argument", "named_field", "let_binding", "for_binding") and n.named_child_count:
                self.lhs(n.named_child(0))
            elif t == "arrow_function_expression" and n.named_child_count:
                self.param(n.named_child(0))
            elif t == "do_clause":
                for c in named(n):
                    if c.type == "argument_list":
                        self.param(c)
            elif t == "catch_clause" and n.named_child_count and n.named_child(0).type == "identifier":
                self.binders.add(text(n.named_child(0)))
            elif t in ("struct_definition", "abstract_definition", "primitive_definition"):
                head = next((c for c in named(n) if c.type == "type_head"), None)
                name = self.type_head(head) if head is not None else None
                if name and is_toplevel(n):
                    self.toplevel.add(name)
                if t == "struct_definition":
                    self.struct_fields(n)
            elif t == "module_definition" and n.named_child_count:
                self.binders.add(text(n.named_child(0)))
                self.toplevel.add(text(n.named_child(0)))
            elif t in ("local_statement", "global_statement", "let_statement"):
                for c in named(n):
                    if c.type == "identifier":
                        self.binders.add(text(c))
            elif t == "function_definition":
                sig = next((c for c in named(n) if c.type == "signature"), None)
                if sig is not None and sig.named_child_count:
                    self.lhs(sig.named_child(0))
                    if is_toplevel(n):
                        self._toplevel_lhs(sig.named_child(0))
            elif t == "macro_definition":
                sig = next((c for c in named(n) if c.type == "signature"), None)
                call = sig.named_child(0) if sig is not None and sig.named_child_count else None
                if call is not None and call.type == "call_expression":
                    self.macros.add("@" + text(call.named_child(0)))
                    for c in named(call)[1:]:
                        self.param(c)
            elif t in ("using_statement", "import_statement"):
                self.import_stmt(n, path)
            elif t == "export_statement":
                for c in named(n):
                    if c.type in ("identifier", "macro_identifier"):
                        self.exports.append((text(c), path, c))
            elif t == "call_expression" and n.named_child_count and text(n.named_child(0)) == "include":
                argl = n.named_child(1)
                if argl is not None and argl.named_child_count and argl.named_child(0).type == "string_literal":
                    self.includes.append((path, text(argl.named_child(0)).strip('"')))
            elif t == "identifier":
                self._use(n, path)

    def _toplevel_lhs(self, n):
        if n.type == "identifier":
            self.toplevel.add(text(n))
        elif n.type == "typed_expression" and n.named_child_count:
            self._toplevel_lhs(n.named_child(0))
        elif n.type == "where_expression" and n.named_child_count:
            self._toplevel_lhs(n.named_child(0))
        elif n.type == "call_expression":
            callee = n.named_child(0)
            if callee is not None and callee.type == "identifier":
                self.toplevel.add(text(callee))

    def _use(self, n, path):
        p = n.parent
        if p is None or in_quote(n):
            return
        if p.type in ("using_statement", "import_statement", "selected_import", "import_alias",
                      "import_path", "export_statement", "public_statement"):
            return
        if p.type == "macro_identifier":
            gp = p.parent
            qualified = gp is not None and gp.type == "macrocall_expression" and \
                gp.named_child(0) is not None and gp.named_child(0).type == "identifier" and \
                gp.named_child(0).start_byte < p.start_byte
            if not qualified:
                self.macro_uses.append(("@" + text(n), path, n))
            return
        if p.type == "field_expression":
            if p.named_child(p.named_child_count - 1) == n and p.named_child(0) != n:
                value = p.named_child(0)
                if value.type == "identifier":
                    self.qualified.append((text(value), text(n), path, p))
                return
        self.uses.append((text(n), path, n))


def module_exports(name, package_name, package_exports):
    if name == package_name:
        return package_exports
    if name in ("Base", "Core"):
        return set()
    return JN.STDLIB_EXPORTS.get(name)


class IssueChecks:
    """The checks of issue 22 (see the module docstring, 4 to 8) for the package at pkgdir."""

    def __init__(self, checker, pkgdir, seed_roots):
        self.c = checker
        self.pkg = os.path.abspath(pkgdir)
        self.seed_roots = seed_roots
        self.fail = checker.fail

    def tree(self, path):
        for p, t in self.c.trees.items():
            if os.path.abspath(p) == os.path.abspath(path):
                return p, t
        return None, None

    def run(self):
        src = os.path.join(self.pkg, "src")
        with open(os.path.join(self.pkg, "Project.toml"), "rb") as f:
            self.project = tomllib.load(f)
        self.name = self.project["name"]
        main = os.path.join(src, self.name + ".jl")
        raw = os.path.join(src, "LibCTensor.jl")
        self.src_files = sorted(os.path.join(src, f) for f in os.listdir(src)
                                if f.endswith(".jl") and f != "LibCTensor.jl")
        pkg_names = self.names_of(self.src_files)
        # modules that include()d files define (LibCTensor)
        for _, inc in pkg_names.includes:
            p, t = self.tree(os.path.join(src, inc))
            if t is not None:
                for c in named(t.root_node):
                    if c.type == "module_definition" and c.named_child_count:
                        pkg_names.binders.add(text(c.named_child(0)))
                        pkg_names.toplevel.add(text(c.named_child(0)))
        self.pkg_names = pkg_names
        self.exports = {n for n, _, _ in pkg_names.exports}
        self.defined = pkg_names.toplevel | pkg_names.imported | pkg_names.macros

        self.check_exports(pkg_names)
        self.check_shadowing()
        self.resolve("package " + self.name, pkg_names, module_scope=True)
        self.resolve("raw layer LibCTensor.jl", self.names_of([raw]), module_scope=True)
        ext = os.path.join(self.pkg, "ext")
        if os.path.isdir(ext):
            for f in sorted(os.listdir(ext)):
                if f.endswith(".jl"):
                    self.resolve("extension " + f, self.names_of([os.path.join(ext, f)]), module_scope=True)
        tests = os.path.join(self.pkg, "test", "runtests.jl")
        self.resolve("tests", self.names_of([tests]))
        for root in self.seed_roots:
            for f in jl_files(root):
                self.resolve("example " + os.path.basename(f), self.names_of([f]))
        self.check_readme(tests)
        self.check_rules(raw)

    def names_of(self, paths):
        nm = Names()
        for p in paths:
            q, t = self.tree(p)
            if t is not None:
                nm.add(q, t.root_node)
        return nm

    # ---- 4. exports ----------------------------------------------------------------------
    def check_exports(self, nm):
        before = self.c.failures
        clash = JN.clash_names()
        seen = set()
        for name, path, node in nm.exports:
            seen.add(name)
            if name in clash:
                owners = [m for m, s in (("Base", JN.BASE_EXPORTS), ("Core", JN.CORE_EXPORTS))
                          if name in s] + sorted(m for m, s in JN.STDLIB_EXPORTS.items() if name in s)
                self.fail("%s: exports %s, which %s also export%s: with both `using`, a use of %s is "
                          "an UndefVarError; extend theirs (%s.%s) or do not export it"
                          % (where(path, node), name, ", ".join(owners), "s" if len(owners) == 1 else "",
                             name, owners[0], name))
            elif name in JN.GENERIC_NAMES:
                self.fail("%s: exports %s, a name too generic for a package to export (it would "
                          "clash with other packages): keep it public, unexported" % (where(path, node), name))
            if name not in self.defined and name not in JN.BASE_EXPORTS | JN.CORE_EXPORTS:
                self.fail("%s: exports %s, which the package does not define" % (where(path, node), name))
        if self.c.failures == before:
            print("  ok   %d exported names: none exported by Base, Core or the %d libraries of "
                  "julia_names.py, none too generic, all defined" % (len(seen), len(JN.STDLIB_EXPORTS)))

    # ---- 5. shadowing --------------------------------------------------------------------
    def check_shadowing(self):
        before = self.c.failures
        base = JN.BASE_EXPORTS | JN.CORE_EXPORTS
        imported_from_base = set()
        for path in self.src_files:
            _, t = self.tree(path)
            for n in walk(t.root_node):
                if n.type == "import_statement" and "Base" in text(n):
                    for c in walk(n):
                        if c.type == "identifier":
                            imported_from_base.add(text(c))
        count = 0
        for path in self.src_files:
            _, t = self.tree(path)
            for n in walk(t.root_node):
                call = None
                if n.type == "function_definition" and is_toplevel(n):
                    sig = next((c for c in named(n) if c.type == "signature"), None)
                    call = sig.named_child(0) if sig is not None and sig.named_child_count else None
                elif n.type == "assignment" and is_toplevel(n) and n.named_child_count:
                    call = n.named_child(0)
                while call is not None and call.type in ("where_expression", "typed_expression"):
                    call = call.named_child(0)
                if call is None or call.type != "call_expression":
                    continue
                callee = call.named_child(0)
                if callee.type != "identifier":
                    continue
                count += 1
                name = text(callee)
                if name in base and name not in imported_from_base:
                    self.fail("%s: defines %s(...), a new function that hides Base's %s inside the "
                              "package (and clashes with it for users): define Base.%s(...)"
                              % (where(path, n), name, name, name))
        if self.c.failures == before:
            print("  ok   %d top-level functions of the package: none hides a Base function" % count)

    # ---- 6. name resolution --------------------------------------------------------------
    def resolve(self, what, nm, module_scope=False, report_as=None):
        known = set(JN.BASE_EXPORTS) | set(JN.CORE_EXPORTS) | ALWAYS_KNOWN | nm.binders | nm.imported
        macros = {n for n in JN.BASE_EXPORTS if n.startswith("@")} | nm.macros | \
            {n for n in nm.imported if n.startswith("@")}
        for mod, path, node in nm.using_all:
            ex = module_exports(mod, self.name, self.exports)
            if ex is None:
                self.fail("%s: `using %s`: julia_names.py does not know what %s exports (add it, "
                          "or import names explicitly)" % (where(path, node), mod, mod))
                continue
            known |= ex
            macros |= {n for n in ex if n.startswith("@")}
        bad = 0
        seen = set()
        for name, path, node in nm.uses:
            if name in known or (path, name) in seen:
                continue
            seen.add((path, name))
            bad += 1
            hint = ""
            if name in self.defined:
                hint = " (%s defines it but does not export it: `using %s: %s`, or %s.%s)" % (
                    self.name, self.name, name, self.name, name)
            self.fail("%s: %s is not defined or imported here%s" % (where(path, node), name, hint))
        for name, path, node in nm.macro_uses:
            if name in macros or (path, name) in seen:
                continue
            seen.add((path, name))
            bad += 1
            self.fail("%s: macro %s is not defined or imported here" % (where(path, node), name))
        # Mod.name into the package itself
        for mod, name, path, node in nm.qualified:
            if mod == self.name and name not in self.defined and \
                    name not in JN.BASE_EXPORTS | JN.CORE_EXPORTS:
                bad += 1
                self.fail("%s: %s.%s: the package defines no %s" % (where(path, node), mod, name, name))
        print("  ok   names resolve in the %s (%d uses)" % (what, len(nm.uses)) if not bad else
              "  FAIL %d unresolved names in the %s" % (bad, what))

    # ---- 6, 7. README ----------------------------------------------------------------------
    def check_readme(self, tests):
        before = self.c.failures
        readme = os.path.join(self.pkg, "README.md")
        with open(readme, encoding="utf-8") as f:
            lines = f.read().split("\n")
        blocks, i = [], 0
        while i < len(lines):
            if lines[i].strip() == "```julia":
                j = i + 1
                while j < len(lines) and lines[j].strip() != "```":
                    j += 1
                blocks.append((i + 2, lines[i + 1:j]))    # first code line, 1-based
                i = j
            i += 1
        nm = Names()
        for start, code in blocks:
            # each block parsed on its own, lines numbered as in README.md
            srcb = "\n" * (start - 1) + "\n".join(code) + "\n"
            tree = self.c.parser.parse(srcb.encode("utf-8"))
            for n in walk(tree.root_node):
                if n.type == "ERROR" or n.is_missing:
                    self.fail("%s: syntax error in a julia block" % where(readme, n))
                    break
            nm.add(readme, tree.root_node)
        self.resolve("README's julia blocks (read in order, with their own imports only)", nm)

        with open(tests, encoding="utf-8") as f:
            tlines = [ln.strip() for ln in f.read().split("\n")]
        tset = set(tlines)
        missing = 0
        for start, code in blocks:
            uses = [ln.strip() for ln in code if re.match(r"\s*(using|import)\s", ln)]
            body = [ln.strip() for ln in code if ln.strip() and not re.match(r"\s*(using|import)\s", ln)]
            for u in uses:
                if u not in tset:
                    missing += 1
                    self.fail("%s:%d: `%s` is not a line of %s" % (readme, start, u, os.path.basename(tests)))
            if body and not self._contains_run(tlines, body):
                missing += 1
                self.fail("%s:%d: this julia block (%d lines) is not code of %s, line for line"
                          % (readme, start, len(body), os.path.relpath(tests, self.pkg)))
        if not missing and self.c.failures == before:
            print("  ok   %d julia blocks of README.md are code of %s, line for line"
                  % (len(blocks), os.path.relpath(tests, self.pkg)))

    @staticmethod
    def _contains_run(tlines, body):
        nonblank = [ln for ln in tlines if ln]
        n = len(body)
        return any(nonblank[k:k + n] == body for k in range(len(nonblank) - n + 1))

    # ---- 8. rules of issue 22 ----------------------------------------------------------------
    def check_rules(self, raw):
        checked = []
        before = [self.c.failures]

        def done(line):
            # a rule's summary, printed when it failed nothing
            if self.c.failures == before[0]:
                checked.append(line)
            before[0] = self.c.failures

        def functions_of(path):
            _, t = self.tree(path)
            return t

        def enclosing_function(n):
            for a in ancestors(n):
                if a.type == "function_definition":
                    sig = next((c for c in named(a) if c.type == "signature"), None)
                    return sig, a
                if a.type == "assignment" and a.named_child_count and \
                        a.named_child(0).type in ("call_expression", "where_expression"):
                    return a.named_child(0), a
            return None, None

        def func_name(sig):
            n = sig.named_child(0) if sig is not None and sig.type == "signature" else sig
            while n is not None and n.type in ("where_expression", "typed_expression"):
                n = n.named_child(0)
            if n is None or n.type != "call_expression":
                return None
            return text(n.named_child(0))

        # 8a. direct writes into element memory: only where nobody else sees the memory yet (and
        # the two writers of C-side words: a root node, a callback's out-array slot)
        allowed_writers = {"_init_fresh!", "_foreign_deleter", "_root!", "_store_reference!"}
        writes = 0
        for path in self.src_files:
            t = functions_of(path)
            for n in walk(t.root_node):
                if n.type == "call_expression" and n.named_child_count and \
                        text(n.named_child(0)) in ("unsafe_store!", "unsafe_copyto!", "Libc.memcpy", "Libc.memset"):
                    writes += 1
                    sig, _ = enclosing_function(n)
                    if func_name(sig) not in allowed_writers:
                        self.fail("%s: %s writes memory directly in %s: tensor writes go through the "
                                  "library (ct_copy_), so that they are refused, counted and recorded "
                                  "as the library's are (allowed in: %s)"
                                  % (where(path, n), text(n.named_child(0)), func_name(sig) or "top level",
                                     ", ".join(sorted(allowed_writers))))
        done("%d direct memory writes, each in a function allowed to" % writes)

        # 8b. finalizer on an Array made by unsafe_wrap: only in the Julia 1.10 branch
        fins = 0
        for path in self.src_files:
            t = functions_of(path)
            for fn in walk(t.root_node):
                if fn.type != "function_definition" and not (
                        fn.type == "assignment" and fn.named_child_count and
                        fn.named_child(0).type in ("call_expression", "where_expression")):
                    continue
                wrapped = set()
                for n in walk(fn):
                    if n.type == "assignment" and n.named_child_count == 2 or (
                            n.type == "assignment" and n.named_child_count >= 2):
                        rhs = n.named_child(n.named_child_count - 1)
                        if rhs.type == "call_expression" and text(rhs).replace(" ", "").startswith("unsafe_wrap(Array,"):
                            wrapped.add(text(n.named_child(0)))
                for n in walk(fn):
                    if n.type == "call_expression" and text(n.named_child(0)) == "finalizer":
                        args = [c for c in named(n.named_child(1))] if n.named_child_count > 1 else []
                        if len(args) == 2 and text(args[1]) in wrapped:
                            fins += 1
                            if not self._in_pre_memory_branch(n):
                                self.fail("%s: a finalizer attached to an Array made by unsafe_wrap: on "
                                          "Julia 1.11+ the bytes belong to its Memory, which arrays derived "
                                          "from it keep alive, not the wrapper (JuliaLang/julia#54985): "
                                          "attach it to the Memory, or keep this in the "
                                          "`@static if isdefined(Base, :Memory) ... else` branch"
                                          % where(path, n))
        done("%d finalizers on unsafe_wrap arrays, each in the Julia 1.10 branch" % fins)

        # 8c. every mutable struct that holds a handle: deepcopy and serialization defined
        defined_methods = []   # (qualified function name, signature text)
        handle_structs = []
        for path in self.src_files:
            t = functions_of(path)
            for n in walk(t.root_node):
                if n.type == "struct_definition" and text(n).startswith("mutable struct"):
                    fields = Names()
                    fields.struct_fields(n)
                    if "handle" in fields.binders:
                        head = next((c for c in named(n) if c.type == "type_head"), None)
                        handle_structs.append((Names().type_head(head), path, n))
                sig = None
                if n.type == "function_definition":
                    s2 = next((c for c in named(n) if c.type == "signature"), None)
                    sig = s2.named_child(0) if s2 is not None and s2.named_child_count else None
                elif n.type == "assignment" and n.named_child_count:
                    sig = n.named_child(0)
                while sig is not None and sig.type in ("where_expression", "typed_expression"):
                    sig = sig.named_child(0)
                if sig is not None and sig.type == "call_expression":
                    defined_methods.append((text(sig.named_child(0)), text(sig)))
        for name, path, node in handle_structs:
            for fn in ("Base.deepcopy_internal", "Serialization.serialize"):
                if not any(f == fn and re.search(r"::%s\b" % re.escape(name), sig) for f, sig in defined_methods):
                    self.fail("%s: mutable struct %s holds a handle but defines no %s method: the "
                              "default copies the raw handle (released twice later)" % (where(path, node), name, fn))
        done("%d handle-holding structs, each with deepcopy and serialization" % len(handle_structs))

        # 8d. a package type converts to Ptr{Cvoid} nowhere (handles have their own pointer types)
        for f, sig in defined_methods:
            if f in ("Base.cconvert", "Base.unsafe_convert") and re.search(r"Type\{Ptr\{(Cvoid|Nothing)\}\}", sig):
                self.fail("%s(%s...): converts a package type to Ptr{Cvoid}: as Ptr{Cvoid} an array "
                          "passes its data (Base's rule); a handle converts to its own type "
                          "(Ptr{LibCTensor.ct_tensor})" % (f, sig.split("(", 1)[1][:60]))
        done("no conversion of a package type to Ptr{Cvoid}")

        # 8e. every library call that may allocate goes through the out-of-memory retry
        allocating = self._allocating_functions()
        calls = 0
        for path in self.src_files:
            t = functions_of(path)
            for n in walk(t.root_node):
                if n.type != "call_expression" or n.named_child(0).type != "field_expression":
                    continue
                callee = n.named_child(0)
                mod, fname = text(callee.named_child(0)), text(callee.named_child(callee.named_child_count - 1))
                if mod not in ("L", "LibCTensor") or fname not in allocating:
                    continue
                calls += 1
                if not self._in_retry(n):
                    self.fail("%s: %s may allocate: call it as own_handle(() -> %s.%s(...)) or "
                              "_status(() -> ...), which retry once after GC.gc() on "
                              "CT_ERR_OUT_OF_MEMORY" % (where(path, n), fname, mod, fname))
        done("%d calls of allocating library functions, each under the out-of-memory retry" % calls)

        # 8f. pointer / unsafe_convert(Ptr{T}) of a Tensor check closed and read-only tensors
        for path in self.src_files:
            t = functions_of(path)
            for n in walk(t.root_node):
                if n.type not in ("function_definition", "assignment") or not n.named_child_count:
                    continue
                sig = n.named_child(0)
                if sig.type == "signature":
                    sig = sig.named_child(0)
                while sig is not None and sig.type in ("where_expression", "typed_expression"):
                    sig = sig.named_child(0)
                if sig is None or sig.type != "call_expression":
                    continue
                f, st = text(sig.named_child(0)), text(sig)
                if f in ("Base.pointer", "Base.unsafe_convert") and re.search(r"::Tensor\b", st) and \
                        "_TensorHandle" not in st and "ct_tensor" not in st:
                    if "_checked_data" not in text(n):
                        self.fail("%s: %s of a Tensor must go through _checked_data (no NULL pointer "
                                  "for a closed tensor, no writable pointer to a read-only storage)"
                                  % (where(path, n), f))
        done("pointer/unsafe_convert of a Tensor: through _checked_data")

        # 8g. Base.stride is Base's
        for f, sig in defined_methods:
            if f == "Base.stride":
                self.fail("Base.stride(%s: Base's generic method is right for any strides; do not "
                          "redefine it" % sig.split("(", 1)[1][:60])
        done("Base.stride not redefined")

        # 8h. the raw layer's __init__ tolerates a missing library while output is generated
        _, t = self.tree(raw)
        init = [n for n in walk(t.root_node) if n.type == "function_definition" and
                text(n).startswith("function __init__")]
        if not init or "_generating_output()" not in text(init[0]):
            self.fail("%s: __init__ must not fail while output is generated (precompiling a "
                      "package that depends on this one without the library)" % raw)
        done("raw layer's __init__ tolerates precompilation without the library")

        # 8i. Project.toml: [compat] for julia and every dependency; a file per extension
        proj = self.project
        compat = proj.get("compat", {})
        need = ["julia"] + sorted(set(proj.get("deps", {})) | set(proj.get("weakdeps", {})) |
                                  set(proj.get("extras", {})))
        for dep in need:
            if dep not in compat:
                self.fail("Project.toml: no [compat] entry for %s" % dep)
        for ext in proj.get("extensions", {}):
            if not os.path.isfile(os.path.join(self.pkg, "ext", ext + ".jl")):
                self.fail("Project.toml: extension %s has no ext/%s.jl" % (ext, ext))
        for target in proj.get("targets", {}).values():
            for dep in target:
                if dep not in proj.get("extras", {}) and dep not in proj.get("deps", {}):
                    self.fail("Project.toml: test target %s is not in [extras]" % dep)
        done("Project.toml: [compat] for julia and %d dependencies; a file per extension" % (len(need) - 1))

        for line in checked:
            print("  ok   " + line)

    @staticmethod
    def _in_pre_memory_branch(n):
        """Inside the else branch of `@static if isdefined(Base, :Memory) ...`."""
        for a in ancestors(n):
            if a.type == "else_clause":
                ifs = a.parent
                if ifs is not None and ifs.type == "if_statement" and ifs.named_child_count and \
                        ":Memory" in text(ifs.named_child(0)):
                    return True
        return False

    @staticmethod
    def _in_retry(n):
        for a in ancestors(n):
            if a.type == "arrow_function_expression":
                call = a.parent.parent if a.parent is not None else None
                if call is not None and call.type == "call_expression" and \
                        text(call.named_child(0)) in ("own_handle", "_status", "_retry_oom"):
                    return True
        return False

    def _allocating_functions(self):
        """Functions of the header that may allocate tensor memory: those of the creation, copy,
        view-or-copy, compute, reduction and random sections, ct_copy_ and ct_from_data
        (ct_from_blob wraps foreign memory; views and queries allocate none)."""
        import cheader
        h = cheader.read_header()
        sections = sorted(h["sections"])
        out = set()
        for f in h["functions"]:
            title = ""
            for line, t, _ in sections:
                if line < f["line"]:
                    title = t
            ret = f["ret"]
            makes = (ret["kind"] == "pointer" and ret["to"].get("name") == "ct_tensor") or \
                (ret["kind"] == "enum" and ret["name"] == "ct_status")
            if makes and re.match(r"(Creation|View when possible|Copies|Compute)", title):
                out.add(f["name"])
        out.add("ct_copy_")
        out.discard("ct_from_blob")
        out.discard("ct_manual_seed")
        return out


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
    package = None
    roots = []
    i = 0
    while i < len(argv):
        if argv[i] == "--ccalls":
            i += 1
            ccalls_out = argv[i] if i < len(argv) else None
        elif argv[i] == "--package":
            i += 1
            package = argv[i] if i < len(argv) else None
            roots.append(package)
        else:
            roots.append(argv[i])
        i += 1
    if not roots:
        sys.stderr.write("usage: julia_check.py [--package PKGDIR] <dir-or-file.jl>... [--ccalls out.json]\n")
        return 2
    files = [f for r in roots for f in jl_files(r)]

    c = Checker()
    c.parse(files)

    raw_file = next((f for f in files if os.path.basename(f) == "LibCTensor.jl"), None)
    if raw_file:
        c.raw_layer_refs(raw_file)

    ccalls = c.ccall_sites()
    print("  ok   %d ccall sites extracted%s; %d ccalls of the Julia runtime (allowed: %s)"
          % (len(ccalls), (" to " + ccalls_out) if ccalls_out else "", c.runtime_ccalls,
             ", ".join(sorted(RUNTIME_CCALLS))))
    if ccalls_out:
        with open(ccalls_out, "w", encoding="utf-8") as f:
            json.dump(ccalls, f, indent=1)

    if package:
        seeds = [r for r in roots if os.path.abspath(r) != os.path.abspath(package)]
        IssueChecks(c, package, seeds).run()

    print("julia checks: %d files, %d failures" % (len(files), c.failures))
    return 1 if c.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

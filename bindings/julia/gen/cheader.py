"""Reads include/ctensor.h into plain data: functions (name, return type, parameters, the
comment above them), enums, and the numeric and string macros.

Shared by generate.py (which writes the Julia raw layer) and ../check/check_ccalls.py (which
checks every ccall against the header).  The header goes through the C preprocessor with
stand-in <stddef.h>/<stdint.h> (fake_include/) so that int64_t, size_t, ... keep their names,
and is parsed by pycparser (Debian: python3-pycparser).

A C type is described by a small dict, the same for both users:
  {"kind": "scalar", "name": "int64_t", "const": False}
  {"kind": "enum", "name": "ct_dtype"}                   a typedef'd enum
  {"kind": "opaque", "name": "ct_tensor"}                a struct without a visible body
  {"kind": "void"}
  {"kind": "pointer", "to": <type>, "const": False}      `const` of the pointer itself
  {"kind": "function"}                                  only behind a pointer
and c_spelling(t) gives it back as C ("const int64_t *").
"""
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
HEADER = os.path.join(REPO, "include", "ctensor.h")

try:
    from pycparser import c_ast, c_parser
except ImportError:  # pragma: no cover - a message is better than a traceback
    sys.exit("pycparser is missing: pip install pycparser (build/venv has it), or apt-get install python3-pycparser")


def preprocess(path):
    """The header after the C preprocessor, with line markers (for coordinates).

    -undef drops __GNUC__ etc., so CT_API expands to nothing; -nostdinc plus fake_include/
    keeps the typedef names of <stdint.h> and <stddef.h>."""
    fake = os.path.join(HERE, "fake_include")
    for cpp in (["cpp"], ["gcc", "-E"], ["cc", "-E"], ["clang", "-E"]):
        if shutil.which(cpp[0]):
            cmd = cpp + ["-nostdinc", "-undef", "-I", fake, path]
            return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    sys.exit("no C preprocessor found (cpp, gcc, cc or clang)")


def _describe(node, typedefs):
    """The type dict of a pycparser type node."""
    if isinstance(node, c_ast.PtrDecl):
        inner = node.type
        if isinstance(inner, c_ast.FuncDecl):
            return {"kind": "pointer", "to": {"kind": "function"}, "const": "const" in node.quals}
        return {"kind": "pointer", "to": _describe(inner, typedefs), "const": "const" in node.quals}
    if isinstance(node, c_ast.TypeDecl):
        const = "const" in node.quals
        t = node.type
        if isinstance(t, c_ast.Struct):
            return {"kind": "opaque", "name": "struct " + t.name, "const": const}
        if isinstance(t, c_ast.Enum):
            return {"kind": "enum", "name": "enum " + t.name, "const": const}
        if isinstance(t, c_ast.IdentifierType):
            name = " ".join(t.names)
            if name == "void":
                return {"kind": "void", "const": const}
            kind = typedefs.get(name, "scalar")
            if kind == "funcptr":  # a typedef'd function pointer (ct_tensor_hook_fn) is one
                return {"kind": "pointer", "to": {"kind": "function"}, "const": const}
            return {"kind": kind, "name": name, "const": const}
    raise ValueError("unsupported C type node: %s" % type(node).__name__)


def c_spelling(t):
    """C spelling of a type dict: "const int64_t *", "ct_tensor *", "void (*)(...)"."""
    k = t["kind"]
    if k == "pointer":
        if t["to"]["kind"] == "function":
            return "void (*)(...)"
        s = c_spelling(t["to"]) + " *"
        return s + " const" if t.get("const") else s
    if k == "void":
        base = "void"
    else:
        base = t["name"]
    return ("const " + base) if t.get("const") else base


def _doc_above(lines, lineno):
    """The comment directly above line `lineno` (1-based), or "".

    Adjacent comments read as one; a blank line, a declaration, a comment trailing code or a
    section rule ("/* ---- Views ---- */") ends it.  So a comment shared by a group of
    declarations documents the first of them only."""
    i = lineno - 2
    block = []
    while i >= 0 and lines[i].rstrip().endswith("*/"):
        j = i
        while j >= 0 and "/*" not in lines[j]:
            j -= 1
        if j < 0 or lines[j].split("/*", 1)[0].strip() or re.match(r"\s*/\*\s*-{3,}", lines[j]):
            break
        block = lines[j:i + 1] + block
        i = j - 1
    text = "\n".join(block)
    text = re.sub(r"/\*+", "", text)
    text = re.sub(r"\*+/", "", text)
    out = [re.sub(r"^\*\s?", "", ln.strip()) for ln in text.split("\n")]
    return "\n".join(out).strip()


def _sections(lines):
    """Section rules of the header, [(line, title, note)]: "/* ---- Views: ... ---- */" and
    the comment right below it when a blank line separates that comment from what follows
    (a comment touching a declaration documents the declaration instead)."""
    out = []
    for i, ln in enumerate(lines, 1):
        m = re.match(r"\s*/\*\s*-{3,}\s*(.*?)\s*-{3,}\s*\*/", ln)
        if not m:
            continue
        note = ""
        if i < len(lines) and lines[i].strip().startswith("/*"):
            j = i
            while j < len(lines) and "*/" not in lines[j]:
                j += 1
            if j + 1 < len(lines) and not lines[j + 1].strip():
                note = _doc_above(lines, j + 2)
        out.append((i, m.group(1), note))
    return out


def _macros(lines):
    """#define NAME <integer or string literal>, a /* comment */ after it allowed (function-like
    macros and others skipped)."""
    out = []
    for ln in lines:
        m = re.match(r"\s*#\s*define\s+(CT_\w+)\s+(-?\d+|\"[^\"]*\")\s*(/\*.*\*/)?\s*$", ln)
        if m:
            v = m.group(2)
            out.append((m.group(1), int(v) if not v.startswith('"') else v[1:-1]))
    return out


def read_header(path=HEADER):
    """{"functions": [...], "enums": [...], "macros": [...], "sections": [...]} in header order."""
    with open(path, encoding="utf-8") as f:
        raw = f.read()
    lines = raw.split("\n")
    ast = c_parser.CParser().parse(preprocess(path), path)

    typedefs = {}  # typedef name -> "opaque" | "enum" | "funcptr" (scalars stay "scalar")
    enums = []
    functions = []
    for ext in ast.ext:
        if isinstance(ext, c_ast.Typedef):
            t = ext.type.type if isinstance(ext.type, c_ast.TypeDecl) else None
            if isinstance(ext.type, c_ast.PtrDecl) and isinstance(ext.type.type, c_ast.FuncDecl):
                typedefs[ext.name] = "funcptr"
            elif isinstance(t, c_ast.Struct) and t.decls is None:
                typedefs[ext.name] = "opaque"
            elif isinstance(t, c_ast.Enum):
                typedefs[ext.name] = "enum"
                values, nxt = [], 0
                for e in t.values.enumerators:
                    if e.value is not None:
                        nxt = _int_value(e.value)
                    values.append((e.name, nxt))
                    nxt += 1
                if os.path.abspath(ext.coord.file) == os.path.abspath(path):
                    # pycparser places the typedef on its last line; the comment is above
                    # the line that opens it.
                    line = ext.coord.line
                    for i, ln in enumerate(lines, 1):
                        if re.match(r"\s*typedef\s+enum\s+%s\b" % re.escape(t.name or ""), ln):
                            line = i
                            break
                    enums.append({"name": ext.name, "values": values, "line": line,
                                  "doc": _doc_above(lines, line)})
        elif isinstance(ext, c_ast.Decl) and isinstance(ext.type, c_ast.FuncDecl):
            if os.path.abspath(ext.coord.file) != os.path.abspath(path):
                continue
            fd = ext.type
            ret = _describe(fd.type, typedefs)
            params = []
            for i, p in enumerate(fd.args.params if fd.args else []):
                if isinstance(p, c_ast.Typename):  # (void) or an unnamed parameter
                    d = _describe(p.type, typedefs)
                    if d["kind"] == "void":
                        continue
                    params.append({"name": "arg%d" % (i + 1), "type": d})
                else:
                    params.append({"name": p.name, "type": _describe(p.type, typedefs)})
            functions.append({"name": ext.name, "ret": ret, "params": params,
                              "line": ext.coord.line, "doc": _doc_above(lines, ext.coord.line),
                              "prototype": _prototype(lines, ext.coord.line)})
    return {"functions": functions, "enums": enums, "macros": _macros(lines),
            "sections": _sections(lines), "typedefs": typedefs}


def _int_value(node):
    if isinstance(node, c_ast.Constant):
        return int(node.value.rstrip("uUlL"), 0)
    if isinstance(node, c_ast.UnaryOp) and node.op == "-":
        return -_int_value(node.expr)
    raise ValueError("unsupported enum value")


def _prototype(lines, lineno):
    """The declaration as written (joined if it spans lines), without CT_API."""
    i = lineno - 1
    parts = []
    while i < len(lines):
        parts.append(lines[i].strip())
        if ";" in lines[i]:
            break
        i += 1
    s = " ".join(parts)
    s = re.sub(r"^CT_API\s+", "", s)
    return re.sub(r"\s+", " ", s)


if __name__ == "__main__":
    import json
    print(json.dumps(read_header(sys.argv[1] if len(sys.argv) > 1 else HEADER), indent=1))

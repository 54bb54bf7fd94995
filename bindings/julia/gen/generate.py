#!/usr/bin/env python3
"""Generates bindings/julia/CTensor/src/LibCTensor.jl from include/ctensor.h.

    $CT_PYTHON bindings/julia/gen/generate.py           # rewrite the checked-in file
    $CT_PYTHON bindings/julia/gen/generate.py --check   # exit 1 (with a diff) if stale
    $CT_PYTHON bindings/julia/gen/generate.py --stdout  # print, write nothing

One `ccall` wrapper per header function, in the header's order, with the header's comment
as its docstring; the header's enums and numeric/string macros as constants.  Needs
pycparser (build/venv, or Debian's python3-pycparser) and a C preprocessor (cpp from gcc,
or clang).

Type mapping (the same one ../check/check_ccalls.py verifies independently):
  handles: ct_tensor * -> Ptr{ct_tensor}, ct_storage * -> Ptr{ct_storage}, where ct_tensor
    and ct_storage are opaque Julia types emitted here for the header's opaque typedefs;
  struct DL... *, void *, function pointers -> Ptr{Cvoid}
  int -> Cint, enums -> Cint, double -> Cdouble, size_t -> Csize_t,
  int64_t -> Int64, uint64_t -> UInt64 (and the other <stdint.h> widths),
  char * / const char * -> Ptr{UInt8} (NULL-able, read with unsafe_string),
  T * -> Ptr{<T>}, handle * -> Ptr{Ptr{ct_tensor}}.
"""
import argparse
import difflib
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cheader  # noqa: E402

OUT = os.path.join(cheader.REPO, "bindings", "julia", "CTensor", "src", "LibCTensor.jl")

SCALARS = {
    "int": "Cint", "unsigned int": "Cuint", "long": "Clong", "unsigned long": "Culong",
    "short": "Cshort", "unsigned short": "Cushort", "char": "Cchar", "signed char": "Int8",
    "unsigned char": "Cuchar", "float": "Cfloat", "double": "Cdouble", "size_t": "Csize_t",
    "ptrdiff_t": "Cptrdiff_t", "int8_t": "Int8", "int16_t": "Int16", "int32_t": "Int32",
    "int64_t": "Int64", "uint8_t": "UInt8", "uint16_t": "UInt16", "uint32_t": "UInt32",
    "uint64_t": "UInt64", "intptr_t": "Int", "uintptr_t": "UInt",
}

# Julia's reserved words cannot name an argument (the header has `end` in ct_arange).
RESERVED = {
    "baremodule", "begin", "break", "catch", "const", "continue", "do", "else", "elseif", "end",
    "export", "false", "finally", "for", "function", "global", "if", "import", "let", "local",
    "macro", "module", "quote", "return", "struct", "true", "try", "using", "while",
    "abstract", "mutable", "primitive", "type", "where", "in", "isa", "outer",
}


def julia_type(t):
    k = t["kind"]
    if k == "void":
        return "Cvoid"
    if k == "enum":
        return "Cint"
    if k == "opaque":
        raise ValueError("struct passed by value: %s" % t["name"])
    if k == "scalar":
        if t["name"] not in SCALARS:
            raise ValueError("no Julia type for C type %r: add it to SCALARS" % t["name"])
        return SCALARS[t["name"]]
    if k == "pointer":
        to = t["to"]
        if to["kind"] == "opaque" and is_handle(to):
            return "Ptr{%s}" % to["name"]
        if to["kind"] in ("function", "void", "opaque"):
            return "Ptr{Cvoid}"
        if to["kind"] == "scalar" and to["name"] == "char":
            return "Ptr{UInt8}"
        return "Ptr{%s}" % julia_type(to)
    raise ValueError("unsupported type %r" % t)


def is_handle(t):
    """A typedef'd opaque struct of the header (ct_tensor, ct_storage): its pointers are
    handles, typed Ptr{<name>} with an opaque Julia type of the same name.  Other structs
    (struct DLManagedTensor) stay Ptr{Cvoid}."""
    return t["kind"] == "opaque" and not t["name"].startswith("struct ")


def arg_name(name):
    return name + "_" if name in RESERVED else name


def doc_escape(s):
    return s.replace("\\", "\\\\").replace("$", "\\$").replace('"""', '\\"\\"\\"')


PREAMBLE = """\
# GENERATED from include/ctensor.h by bindings/julia/gen/generate.py: do not edit.
# Change the header, then run `$CT_PYTHON bindings/julia/gen/generate.py`;
# bindings/julia/check/run_checks.sh fails while this file differs from what the generator writes.
#
# The raw layer: one `ccall` wrapper per function of the header, in the header's order,
# named as in C and documented with the header's comment.  Arguments are untyped and
# converted by `ccall` (`Base.cconvert`/`Base.unsafe_convert`).  Types: a handle is a pointer
# to an opaque type of its own (`ct_tensor *` is `Ptr{ct_tensor}`, `ct_storage *` is
# `Ptr{ct_storage}`), so a `CTensor.Tensor` passes as its handle where a `Ptr{ct_tensor}` is
# expected and nowhere else (as `Ptr{T}` or `Ptr{Cvoid}` an array passes its data, Base's
# rule); `void *`, other structs and function pointers are `Ptr{Cvoid}`; enums are `Cint`;
# `const char *` is `Ptr{UInt8}` (NULL-able: check before `unsafe_string`).  No wrapper
# checks for errors: the hand-written layer (CTensor.jl) turns NULL / non-zero / sentinel
# results into `CTensorError`s.

module LibCTensor

import Libdl

const _LIBPATH = Ref{String}("")

# True while Julia writes a precompile cache or an image (Base.generating_output, Julia 1.11+).
@static if isdefined(Base, :generating_output)
    _generating_output() = Base.generating_output()
else
    _generating_output() = ccall(:jl_generating_output, Cint, ()) != 0
end

\"\"\"
    libctensor() -> String

Full path of the libctensor that every `ccall` here uses, loaded on first use if
`__init__` could not (see `load_library`).
\"\"\"
function libctensor()
    p = _LIBPATH[]
    return isempty(p) ? load_library() : p
end

\"\"\"
    load_library() -> String

Loads libctensor and returns its full path: `ENV["CTENSOR_LIB"]` if set, made absolute
against the current directory at that moment when it is a relative path (`Pkg.test` runs
the tests in the package's `test/` directory, so set an absolute path there), else
`libctensor` from the library search path.  Throws an `ErrorException` that says which
path was tried and why it failed.
\"\"\"
function load_library()
    name = get(ENV, "CTENSOR_LIB", "")
    if isempty(name)
        path = "libctensor"
        how = "libctensor from the library search path (ENV[\\"CTENSOR_LIB\\"] is not set)"
    elseif isabspath(expanduser(name))
        path = expanduser(name)
        how = "ENV[\\"CTENSOR_LIB\\"] = \\"" * name * "\\""
    else
        path = abspath(expanduser(name))
        how = "ENV[\\"CTENSOR_LIB\\"] = \\"" * name * "\\", a relative path, made absolute " *
              "against the current directory " * pwd() * " as \\"" * path * "\\" (Pkg.test " *
              "runs the tests in the package's test/ directory: use an absolute path)"
    end
    h = Libdl.dlopen(path; throw_error = false)
    if h === nothing
        isfile(path) || isempty(name) || (how *= "; no such file")
        error("CTensor: cannot load libctensor: tried " * how * ".  Set ENV[\\"CTENSOR_LIB\\"] " *
              "to the absolute path of libctensor.so, or put it on the library search path.")
    end
    p = Libdl.dlpath(h)
    _LIBPATH[] = p
    return p
end

function __init__()
    _LIBPATH[] = ""
    try
        load_library()
    catch
        # While a package that depends on CTensor is precompiled the library need not be
        # there: the first call that needs it loads it (or says why it cannot).
        _generating_output() || rethrow()
    end
    return nothing
end
"""


def rule(title):
    """A section line: "# ---- Views ----...", 92 columns like the header's."""
    head = "# ---- %s " % title
    return "\n" + head + "-" * max(4, 92 - len(head)) + "\n"


def generate(header_path=cheader.HEADER):
    h = cheader.read_header(header_path)
    out = [PREAMBLE]

    out.append(rule("Handle types (the header's opaque structs)"))
    for name, kind in h["typedefs"].items():
        if kind != "opaque":
            continue
        out.append('\n"""\n    %s\n\nThe C type `%s`, opaque: only pointers to it exist.  A `Ptr{%s}` is a\n'
                   'handle; the objects of `CTensor` that own one convert to it in `ccall`.\n"""\n'
                   'mutable struct %s end\n' % (name, name, name, name))

    out.append(rule("Constants (the header's macros)") + "\n")
    for name, value in h["macros"]:
        if isinstance(value, str):
            out.append('const %s = "%s"\n' % (name, doc_escape(value)))
        else:
            out.append("const %s = %d\n" % (name, value))

    for e in h["enums"]:
        out.append(rule("enum " + e["name"]))
        for ln in e["doc"].split("\n"):
            if ln:
                out.append("# " + ln + "\n")
        out.append("const %s = Cint\n" % e["name"])
        for vname, v in e["values"]:
            out.append("const %s = Cint(%d)\n" % (vname, v))

    sections = list(h["sections"])
    for f in h["functions"]:
        while sections and sections[0][0] < f["line"]:
            _, title, note = sections.pop(0)
            if sections and sections[0][0] < f["line"]:
                continue  # a section without functions (Version, Types)
            out.append(rule(title))
            if note:
                out.append("".join(("# " + ln).rstrip() + "\n" for ln in note.split("\n")))
        ret = julia_type(f["ret"])
        names = [arg_name(p["name"]) for p in f["params"]]
        types = [julia_type(p["type"]) for p in f["params"]]
        sig = "%s(%s)" % (f["name"], ", ".join(names))
        doc = "    %s -> %s\n\n`%s`" % (sig, ret, f["prototype"])
        if f["doc"]:
            doc += "\n\n" + f["doc"]
        out.append('\n"""\n%s\n"""\n' % doc_escape(doc))
        tuple_types = "(" + ", ".join(types) + ("," if len(types) == 1 else "") + ")"
        call_args = "".join(", " + n for n in names)
        out.append("function %s\n    ccall((:%s, libctensor()), %s, %s%s)\nend\n"
                   % (sig, f["name"], ret, tuple_types, call_args))

    out.append("\nend # module LibCTensor\n")
    return "".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if the checked-in file is stale")
    ap.add_argument("--stdout", action="store_true", help="print instead of writing")
    ap.add_argument("--header", default=cheader.HEADER)
    ap.add_argument("--out", default=OUT)
    a = ap.parse_args()
    text = generate(a.header)
    if a.stdout:
        sys.stdout.write(text)
        return 0
    if a.check:
        try:
            with open(a.out, encoding="utf-8") as f:
                old = f.read()
        except FileNotFoundError:
            old = ""
        if old == text:
            print("generator: %s is up to date with %s" % (os.path.relpath(a.out, cheader.REPO),
                                                          os.path.relpath(a.header, cheader.REPO)))
            return 0
        sys.stdout.writelines(difflib.unified_diff(
            old.splitlines(True), text.splitlines(True), "checked-in " + os.path.basename(a.out),
            "regenerated from the header"))
        print("generator: %s is STALE: run $CT_PYTHON bindings/julia/gen/generate.py"
              % os.path.relpath(a.out, cheader.REPO))
        return 1
    with open(a.out, "w", encoding="utf-8") as f:
        f.write(text)
    print("wrote %s (%d functions)" % (a.out, text.count("    ccall((:")))
    return 0


if __name__ == "__main__":
    sys.exit(main())

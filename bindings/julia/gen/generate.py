#!/usr/bin/python3
"""Generates bindings/julia/CTensor/src/LibCTensor.jl from include/ctensor.h.

    /usr/bin/python3 bindings/julia/gen/generate.py           # rewrite the checked-in file
    /usr/bin/python3 bindings/julia/gen/generate.py --check   # exit 1 (with a diff) if stale
    /usr/bin/python3 bindings/julia/gen/generate.py --stdout  # print, write nothing

One `ccall` wrapper per header function, in the header's order, with the header's comment
as its docstring; the header's enums and numeric/string macros as constants.  Needs
python3-pycparser and a C preprocessor (cpp from gcc, or clang).

Type mapping (the same one ../check/check_ccalls.py verifies independently):
  handles (ct_tensor *, ct_storage *, struct DL... *), void *, function pointers -> Ptr{Cvoid}
  int -> Cint, enums -> Cint, double -> Cdouble, size_t -> Csize_t,
  int64_t -> Int64, uint64_t -> UInt64 (and the other <stdint.h> widths),
  char * / const char * -> Ptr{UInt8} (NULL-able, read with unsafe_string),
  T * -> Ptr{<T>}, handle * -> Ptr{Ptr{Cvoid}}.
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
        if to["kind"] in ("function", "void", "opaque"):
            return "Ptr{Cvoid}"
        if to["kind"] == "scalar" and to["name"] == "char":
            return "Ptr{UInt8}"
        return "Ptr{%s}" % julia_type(to)
    raise ValueError("unsupported type %r" % t)


def arg_name(name):
    return name + "_" if name in RESERVED else name


def doc_escape(s):
    return s.replace("\\", "\\\\").replace("$", "\\$").replace('"""', '\\"\\"\\"')


PREAMBLE = '''\
# GENERATED from include/ctensor.h by bindings/julia/gen/generate.py: do not edit.
# Change the header, then run `/usr/bin/python3 bindings/julia/gen/generate.py`;
# tests/clients/run_all.sh fails while this file differs from what the generator writes.
#
# The raw layer: one `ccall` wrapper per function of the header, in the header's order,
# named as in C and documented with the header's comment.  Arguments are untyped and
# converted by `ccall` (`Base.cconvert`/`Base.unsafe_convert`), so a `CTensor.Tensor`
# passes as its handle and a `Vector{Int64}` as an `int64_t *`.  Types: handles, `void *`
# and function pointers are `Ptr{Cvoid}`; enums are `Cint`; `const char *` is `Ptr{UInt8}`
# (NULL-able: check before `unsafe_string`).  No wrapper checks for errors: the hand-written
# layer (CTensor.jl) turns NULL / non-zero / sentinel results into `CTensorError`s.

module LibCTensor

import Libdl

const _LIBPATH = Ref{String}("")

"""
    libctensor() -> String

Full path of the libctensor that every `ccall` here uses: `ENV["CTENSOR_LIB"]` if set when
the package is loaded, else `libctensor` found on the library search path.
"""
libctensor() = _LIBPATH[]

function __init__()
    name = get(ENV, "CTENSOR_LIB", "")
    isempty(name) && (name = "libctensor")
    h = Libdl.dlopen(name; throw_error = false)
    if h === nothing
        error("CTensor: cannot load libctensor from \\"" * name * "\\": set ENV[\\"CTENSOR_LIB\\"] " *
              "to the path of libctensor.so, or put it on the library search path")
    end
    _LIBPATH[] = Libdl.dlpath(h)
    return nothing
end
'''


def rule(title):
    """A section line: "# ---- Views ----...", 92 columns like the header's."""
    head = "# ---- %s " % title
    return "\n" + head + "-" * max(4, 92 - len(head)) + "\n"


def generate(header_path=cheader.HEADER):
    h = cheader.read_header(header_path)
    out = [PREAMBLE]

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
        print("generator: %s is STALE: run /usr/bin/python3 bindings/julia/gen/generate.py"
              % os.path.relpath(a.out, cheader.REPO))
        return 1
    with open(a.out, "w", encoding="utf-8") as f:
        f.write(text)
    print("wrote %s (%d functions)" % (a.out, text.count("\nfunction ") - 1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

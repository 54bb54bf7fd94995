#!/usr/bin/env python3
"""Checks every ccall of the Julia package against the header and the built library.

    $CT_PYTHON check_ccalls.py --ccalls ccalls.json --lib path/to/libctensor.so

ccalls.json comes from `julia_check.py ... --ccalls ccalls.json`.  For each site:
  - the function is exported by the library (`nm -D --defined-only`, a `T` symbol);
  - it is declared in include/ctensor.h;
  - the return type and every argument type are ones that match the C type (table below,
    written independently of the generator's mapping), and as many values are passed as
    the header has parameters;
  - the library is named through `libctensor()` (the one place ENV["CTENSOR_LIB"] is read).
And for the set as a whole: every header function has exactly one wrapper in LibCTensor.jl.
Exported ct_* symbols the header does not declare are listed as a warning.

Accepted Julia types for a C type:
  void -> Cvoid;  int, enum -> Cint (or Int32);  double -> Cdouble (or Float64);
  int64_t -> Int64;  uint64_t -> UInt64;  size_t -> Csize_t (or UInt);  other <stdint.h>
  names -> the Julia type of the same width and signedness;
  ct_tensor *, ct_storage * (pointers to the header's opaque typedefs: handles) ->
    Ptr{ct_tensor}, Ptr{ct_storage} and nothing else: a handle typed Ptr{Cvoid} would take a
    Tensor's data pointer (Base's rule for arrays) where the handle is meant;
  struct X *, void *, function pointer -> Ptr{Cvoid};
  char * / const char * -> Cstring or Ptr{UInt8} (Ptr{Cchar});
  T * -> Ptr{<T>} (argument: also Ref{<T>});  handle * -> Ptr{Ptr{ct_tensor}} (or Ref{...}).
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(HERE, "..", "gen"))
import cheader  # noqa: E402

SCALAR_OK = {
    "int": {"Cint", "Int32"},
    "unsigned int": {"Cuint", "UInt32"},
    "double": {"Cdouble", "Float64"},
    "float": {"Cfloat", "Float32"},
    "char": {"Cchar", "UInt8", "Int8"},
    "size_t": {"Csize_t", "UInt", "UInt64"},
    "int8_t": {"Int8"}, "int16_t": {"Int16"}, "int32_t": {"Int32", "Cint"},
    "int64_t": {"Int64", "Clonglong"}, "uint8_t": {"UInt8"}, "uint16_t": {"UInt16"},
    "uint32_t": {"UInt32", "Cuint"}, "uint64_t": {"UInt64", "Culonglong"},
}


def accepted(t, is_arg):
    """The Julia spellings (whitespace removed) that match C type dict t."""
    k = t["kind"]
    if k == "void":
        return {"Cvoid", "Nothing"}
    if k == "enum":
        return {"Cint", "Int32", t["name"]}
    if k == "scalar":
        return SCALAR_OK.get(t["name"], set())
    if k == "pointer":
        to = t["to"]
        if to["kind"] == "opaque" and not to["name"].startswith("struct "):
            return {"Ptr{%s}" % to["name"]}
        if to["kind"] in ("void", "opaque", "function"):
            inner = {"Cvoid", "Nothing"}
            return {"Ptr{%s}" % x for x in inner}
        if to["kind"] == "scalar" and to["name"] == "char":
            return {"Cstring", "Ptr{UInt8}", "Ptr{Cchar}"}
        inner = accepted(to, False)
        out = {"Ptr{%s}" % x for x in inner}
        if is_arg:
            out |= {"Ref{%s}" % x for x in inner}
        return out
    return set()


def exported_symbols(lib):
    r = subprocess.run(["nm", "-D", "--defined-only", lib], check=True, capture_output=True, text=True)
    syms = {}
    for ln in r.stdout.splitlines():
        parts = ln.split()
        if len(parts) >= 3:
            syms[parts[2].split("@")[0]] = parts[1]
    return syms


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ccalls", required=True)
    ap.add_argument("--lib", required=True)
    ap.add_argument("--header", default=cheader.HEADER)
    a = ap.parse_args()

    sites = json.load(open(a.ccalls))
    header = {f["name"]: f for f in cheader.read_header(a.header)["functions"]}
    syms = exported_symbols(a.lib)
    failures = []
    checked_types = 0

    wrappers = {}
    for s in sites:
        where = "%s:%d %s" % (s["file"], s["line"], s["name"])
        if os.path.basename(s["file"]) == "LibCTensor.jl":
            wrappers[s["name"]] = wrappers.get(s["name"], 0) + 1
        if syms.get(s["name"]) != "T":
            failures.append("%s: not exported by %s (nm -D --defined-only: %s)"
                            % (where, os.path.basename(a.lib), syms.get(s["name"], "absent")))
        if s["library"] != "libctensor()":
            failures.append("%s: library is %s, expected libctensor()" % (where, s["library"]))
        f = header.get(s["name"])
        if f is None:
            failures.append("%s: not declared in include/ctensor.h" % where)
            continue
        ok = accepted(f["ret"], False)
        checked_types += 1
        if s["ret"] not in ok:
            failures.append("%s: returns %s for C `%s` (expected one of %s)"
                            % (where, s["ret"], cheader.c_spelling(f["ret"]), sorted(ok)))
        if len(s["argtypes"]) != len(f["params"]):
            failures.append("%s: %d argument types for %d C parameters"
                            % (where, len(s["argtypes"]), len(f["params"])))
        for i, (jt, p) in enumerate(zip(s["argtypes"], f["params"])):
            ok = accepted(p["type"], True)
            checked_types += 1
            if jt not in ok:
                failures.append("%s: argument %d (%s) is %s for C `%s` (expected one of %s)"
                                % (where, i + 1, p["name"], jt, cheader.c_spelling(p["type"]), sorted(ok)))
        if s["nvalues"] != len(s["argtypes"]):
            failures.append("%s: passes %d values for %d argument types"
                            % (where, s["nvalues"], len(s["argtypes"])))

    for name in header:
        n = wrappers.get(name, 0)
        if n != 1:
            failures.append("LibCTensor.jl has %d wrappers for %s (expected 1)" % (n, name))
    extra = sorted(n for n, t in syms.items() if t == "T" and n.startswith("ct_") and n not in header)
    if extra:
        print("  warn exported but not in the header: %s" % ", ".join(extra))

    for msg in failures:
        print("  FAIL " + msg)
    print("  %s  %d ccall sites: symbol exported, declared in the header, %d return/argument "
          "types match the header" % ("ok  " if not failures else "FAIL", len(sites), checked_types))
    print("  %s  %d header functions, each with one wrapper in LibCTensor.jl"
          % ("ok  " if all(wrappers.get(n, 0) == 1 for n in header) else "FAIL", len(header)))
    print("ccall signatures: %d sites, %d failures" % (len(sites), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

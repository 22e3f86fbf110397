"""Struct layouts, *_STRUCT_SIZE values and API version macros compiled from a release's own
plugin headers (tensorflow/include in its wheel), and the golden layout (specs/abi) each header
matches.

The member names of each `typedef struct NAME { ... } NAME;` are read from the header text;
their offsets and sizes come from the C compiler (`cc`), so the numbers are the compiler's, not
a parser's. A header the release does not ship is recorded as absent.
"""
import glob
import json
import os
import re
import subprocess
import tempfile

# The plugin-facing headers whose structs TensorFlow's core fills or validates.
HEADERS = (
    "tensorflow/c/experimental/stream_executor/stream_executor.h",
    "tensorflow/c/experimental/grappler/grappler.h",
    "tensorflow/c/experimental/pluggable_profiler/pluggable_profiler.h",
    "tensorflow/c/tf_tensor.h",  # TF_AllocatorAttributes, which kernels fill
)
_VERSION_MACRO = re.compile(r"^\s*#\s*define\s+((?:SE|GO|TP)_(?:MAJOR|MINOR|PATCH))\s+(\d+)", re.M)
_SIZE_MACRO = re.compile(r"^\s*#\s*define\s+(\w+_STRUCT_SIZE)\b", re.M)


def _strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    return re.sub(r"^\s*#[^\n]*(\\\n[^\n]*)*", " ", text, flags=re.M)


def _member_name(declaration):
    pointer = re.search(r"\(\s*\*\s*(\w+)\s*\)", declaration)
    if pointer:
        return pointer.group(1)
    declaration = re.sub(r"\[[^\]]*\]", "", declaration)
    names = re.findall(r"\w+", declaration)
    return names[-1] if names else None


def members_of(body):
    """The member names of a struct body, in order (nested braces and parentheses skipped)."""
    members, depth, start = [], 0, 0
    for index, char in enumerate(body):
        depth += {"(": 1, ")": -1, "{": 1, "}": -1}.get(char, 0)
        if char == ";" and depth == 0:
            name = _member_name(body[start:index])
            if name:
                members.append(name)
            start = index + 1
    return members


def typedef_structs(text):
    """(tag or None, alias or None, [member names]) of every `typedef struct [TAG] { ... }
    [ALIAS];` in a header."""
    text = _strip_comments(text)
    for match in re.finditer(r"typedef\s+struct\s*(\w+)?\s*\{", text):
        depth, pos = 1, match.end()
        while depth:
            depth += {"{": 1, "}": -1}.get(text[pos], 0)
            pos += 1
        alias = re.match(r"\s*(\w+)\s*;", text[pos:])
        yield match.group(1), alias.group(1) if alias else None, members_of(
            text[match.end():pos - 1])


def structs_of(text):
    """{struct name: [member names]} of every `typedef struct NAME {...}` in a header."""
    return {tag: members for tag, _, members in typedef_structs(text) if tag}


def _program(header, structs, size_macros, version_macros):
    lines = ["#include <stddef.h>", "#include <stdio.h>", '#include "%s"' % header,
             "#define M(S, F) sizeof(((S *)0)->F)", "int main(void) {",
             'printf("{\\"structs\\": {");']
    for index, (name, members) in enumerate(structs.items()):
        lines.append('printf("%s\\"%s\\": {\\"sizeof\\": %%zu, \\"alignof\\": %%zu, '
                     '\\"fields\\": [", sizeof(%s), _Alignof(%s));'
                     % ("," if index else "", name, name, name))
        for position, member in enumerate(members):
            lines.append('printf("%s[\\"%s\\", %%zu, %%zu]", offsetof(%s, %s), M(%s, %s));'
                         % ("," if position else "", member, name, member, name, member))
        lines.append('printf("]}");')
    lines.append('printf("}, \\"struct_size_macros\\": {");')
    for index, macro in enumerate(size_macros):
        lines.append('printf("%s\\"%s\\": %%zu", (size_t)(%s));'
                     % ("," if index else "", macro, macro))
    lines.append('printf("}, \\"version_macros\\": {");')
    for index, (macro, _) in enumerate(version_macros):
        lines.append('printf("%s\\"%s\\": %%d", (int)(%s));' % ("," if index else "", macro, macro))
    lines += ['printf("}}\\n");', "return 0;", "}"]
    return "\n".join(lines) + "\n"


# How a header is compiled: C, or C++ for a header only C++ accepts (plugin_c_api.h's includes);
# -fpermissive lets g++ take a member named after its own function type (TFNPD_Api's), which
# C allows; a C struct has the same layout in both.
COMPILERS = {"c": ["cc", "-std=c11", "-w"],
             "c++": ["c++", "-x", "c++", "-std=c++17", "-w", "-fpermissive",
                     "-D_Alignof=alignof"]}


def run_program(include, header, structs, size_macros, version_macros, language="c"):
    """Compiles (COMPILERS[language]) and runs the layout program of `structs` (name: members)
    in `header` under `include`. Returns its JSON (fields still as [name, offset, size])."""
    with tempfile.TemporaryDirectory() as scratch:
        program = os.path.join(scratch, "layout.c")
        binary = os.path.join(scratch, "layout")
        with open(program, "w") as out:
            out.write(_program(header, structs, size_macros, version_macros))
        compiled = subprocess.run(COMPILERS[language] + ["-I", include, program, "-o", binary],
                                  capture_output=True, text=True)
        if compiled.returncode != 0:
            raise SystemExit("%s could not compile the layout program of %s:\n%s"
                             % (COMPILERS[language][0], header, compiled.stderr[-2000:]))
        return json.loads(subprocess.run([binary], capture_output=True, text=True,
                                         check=True).stdout)


def measure_header(include, header):
    """What one header compiles to: its structs, *_STRUCT_SIZE and version macros; None if the
    release does not ship it."""
    path = os.path.join(include, header)
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8", errors="replace") as source:
        text = source.read()
    structs = structs_of(text)
    size_macros = sorted(set(_SIZE_MACRO.findall(text)))
    version_macros = sorted(set(_VERSION_MACRO.findall(text)))
    measured = run_program(include, header, structs, size_macros, version_macros)
    for struct in measured["structs"].values():
        struct["fields"] = ["%s@%d:%d" % tuple(field) for field in struct["fields"]]
    return measured


def _golden_structs(abi_dir):
    """[(golden name, header, {struct: golden struct})] of every specs/abi/tf_layout*.json."""
    goldens = []
    for path in sorted(glob.glob(os.path.join(abi_dir, "tf_layout*.json"))):
        with open(path) as source:
            data = json.load(source)
        name = os.path.basename(path)
        if "header" in data and "structs" in data:
            goldens.append((name, data["header"], data["structs"]))
        for header, section in data.get("headers", {}).items():
            goldens.append((name, header, section["structs"]))
    return goldens


def _same(golden, measured):
    if golden["sizeof"] != measured["sizeof"]:
        return False
    fields = ["%s@%d:%d" % (f["name"], f["offset"], f["size"]) for f in golden["fields"]]
    return fields == measured["fields"]


def matching_goldens(abi_dir, header, measured):
    """The golden layout files whose every struct of `header` the measurement reproduces
    (sizes, member names, offsets and sizes, *_STRUCT_SIZE values)."""
    matches = []
    for name, golden_header, structs in _golden_structs(abi_dir):
        if golden_header != header:
            continue
        same = all(
            struct in measured["structs"] and _same(golden, measured["structs"][struct])
            and (golden.get("struct_size_macro") is None
                 or measured["struct_size_macros"].get(golden["struct_size_macro"])
                 == golden.get("struct_size_value"))
            for struct, golden in structs.items())
        if same:
            matches.append(name)
    return matches


def layouts(package, abi_dir):
    include = os.path.join(package, "include")
    result = {}
    for header in HEADERS:
        measured = measure_header(include, header)
        if measured is not None:
            measured["golden"] = matching_goldens(abi_dir, header, measured)
        result[header] = measured
    return result

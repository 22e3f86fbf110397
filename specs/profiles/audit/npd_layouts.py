"""The NextPluggableDevice layouts of a release, compiled from its wheel's own headers (issue 27):

- `plugin_c_api`: TFNPD_Api and TFNPD_PluginParams of .../next_pluggable_device/c/plugin_c_api.h
  (the table a plugin's TFNPD_InitPlugin returns and the parameters TensorFlow pre-fills), their
  *_STRUCT_SIZE constants and TFNPD_MAJOR/MINOR/PATCH;
- `pjrt_c_api`: PJRT_Api and PJRT_Api_Version of the pjrt_c_api.h that plugin header includes
  (the table a plugin's GetPjrtApi returns), PJRT_Api_STRUCT_SIZE and PJRT_API_MAJOR/MINOR.

Each is `null` when the release ships no such header. Member names are read from the header text
as layouts.py reads them (these headers also use anonymous `typedef struct { ... } NAME;`), the
numbers come from the compiler. Both are compiled as C++ (layouts.COMPILERS): plugin_c_api.h
includes C++-only headers (<cstddef>, an unguarded `extern "C"`), and 2.17.1's pjrt_c_api.h names
`PJRT_Extension_Base` inside that struct before its typedef, which only C++ accepts.
"""
import glob
import os
import re

import layouts

PLUGIN_STRUCTS = ("TFNPD_Api", "TFNPD_PluginParams")
PLUGIN_SIZES = ("TFNPD_Api_STRUCT_SIZE", "TFNPD_PLUGIN_PARAMS_STRUCT_SIZE")
PLUGIN_VERSIONS = ("TFNPD_MAJOR", "TFNPD_MINOR", "TFNPD_PATCH")
PJRT_STRUCTS = ("PJRT_Api", "PJRT_Api_Version")
PJRT_SIZES = ("PJRT_Api_STRUCT_SIZE", "PJRT_Api_Version_STRUCT_SIZE")
PJRT_VERSIONS = ("PJRT_API_MAJOR", "PJRT_API_MINOR")
# Where the PJRT header lives when the plugin header names none (newest path first).
PJRT_HEADERS = ("xla/pjrt/c/pjrt_c_api.h", "tensorflow/compiler/xla/pjrt/c/pjrt_c_api.h")


def named_structs(text, names):
    """{name: [member names]} of the `typedef struct [TAG] { ... } NAME;` whose NAME (or TAG)
    is in `names`."""
    found = {}
    for tag, alias, members in layouts.typedef_structs(text):
        name = alias or tag
        if name in names:
            found[name] = members
    return found


def _defined(text, names):
    """The names of `names` the header defines: a #define, a constant or enum member
    (`NAME =`), or PJRT's PJRT_DEFINE_STRUCT_TRAITS(S, ...), which defines S_STRUCT_SIZE."""
    text = re.sub(r"//[^\n]*", " ", re.sub(r"/\*.*?\*/", " ", text, flags=re.S))
    found = []
    for name in names:
        forms = [r"#\s*define\s+%s\b" % name, r"\b%s\s*=" % name]
        if name.endswith("_STRUCT_SIZE"):
            forms.append(r"DEFINE_STRUCT_TRAITS\(\s*%s\s*," % name[:-len("_STRUCT_SIZE")])
        if any(re.search(form, text) for form in forms):
            found.append(name)
    return found


def measure(include, header, struct_names, size_names, version_names, language):
    with open(os.path.join(include, header), encoding="utf-8", errors="replace") as source:
        text = source.read()
    structs = named_structs(text, struct_names)
    measured = layouts.run_program(include, header, structs, _defined(text, size_names),
                                   [(name, None) for name in _defined(text, version_names)],
                                   language)
    for struct in measured["structs"].values():
        struct["fields"] = ["%s@%d:%d" % tuple(field) for field in struct["fields"]]
    measured["header"] = header
    return measured


def plugin_header(include):
    """The release's plugin_c_api.h that declares TFNPD_Api (path under include), or None."""
    found = sorted(glob.glob(os.path.join(include, "**", "next_pluggable_device", "c",
                                          "plugin_c_api.h"), recursive=True))
    for path in found:
        with open(path, encoding="utf-8", errors="replace") as source:
            if "TFNPD_Api" in source.read():
                return os.path.relpath(path, include)
    return None


def pjrt_header(include, plugin):
    """The pjrt_c_api.h the plugin header includes, else the first of PJRT_HEADERS shipped."""
    candidates = list(PJRT_HEADERS)
    if plugin:
        with open(os.path.join(include, plugin), encoding="utf-8", errors="replace") as source:
            named = re.findall(r'#\s*include\s+"([^"]*pjrt/c/pjrt_c_api\.h)"', source.read())
        candidates = named + candidates
    for header in candidates:
        if os.path.exists(os.path.join(include, header)):
            return header
    return None


def npd_layouts(package):
    include = os.path.join(package, "include")
    plugin = plugin_header(include)
    pjrt = pjrt_header(include, plugin)
    return {
        "plugin_c_api": plugin and measure(include, plugin, PLUGIN_STRUCTS, PLUGIN_SIZES,
                                           PLUGIN_VERSIONS, "c++"),
        "pjrt_c_api": pjrt and measure(include, pjrt, PJRT_STRUCTS, PJRT_SIZES, PJRT_VERSIONS,
                                       "c++"),
    }

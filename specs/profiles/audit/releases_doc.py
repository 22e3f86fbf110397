#!/usr/bin/env python3
"""Writes docs/tensorflow/releases.md from the committed release facts
(specs/profiles/releases/*.json, written by release_audit.py):

    python3 specs/profiles/audit/releases_doc.py > docs/tensorflow/releases.md

Per release: which library exports how many functions, how `import tensorflow` loads them, the
struct sizes and golden layouts of the plugin headers, the op count; then what changed between
consecutive releases, and which releases share identical facts.
"""
import glob
import json
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reachable_exports  # noqa: E402

PROFILES_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
FACTS_DIR = os.path.join(PROFILES_DIR, "releases")
SE = "tensorflow/c/experimental/stream_executor/stream_executor.h"
GRAPPLER = "tensorflow/c/experimental/grappler/grappler.h"
PROFILER = "tensorflow/c/experimental/pluggable_profiler/pluggable_profiler.h"
TENSOR = "tensorflow/c/tf_tensor.h"
# The struct_size values a plugin writes and the suite's header-generation inference reads.
KEY_SIZES = (
    (SE, "SP_PLATFORM_STRUCT_SIZE", "SP_Platform"),
    (SE, "SP_STREAMEXECUTOR_STRUCT_SIZE", "SP_StreamExecutor"),
    (SE, "SP_DEVICE_STRUCT_SIZE", "SP_Device"),
    (SE, "SP_PLATFORM_FNS_STRUCT_SIZE", "SP_PlatformFns"),
    (GRAPPLER, "TP_OPTIMIZER_CONFIGS_STRUCT_SIZE", "TP_OptimizerConfigs"),
    (PROFILER, "TP_PROFILER_STRUCT_SIZE", "TP_Profiler"),
    (TENSOR, "TF_ALLOCATOR_ATTRIBUTES_STRUCT_SIZE", "TF_AllocatorAttributes"),
)


# Declared in a header for the plugin to define, not for it to import.
PLUGIN_ENTRY_POINTS = {"TF_InitGraph", "TF_InitProfiler", "TF_InitKernel", "TF_InitPlugin"}


def _key(version):
    return tuple(int(part) for part in version.split(".")[:3])


def load():
    releases = []
    for path in glob.glob(os.path.join(FACTS_DIR, "*.json")):
        with open(path, encoding="utf-8") as source:
            releases.append(json.load(source))
    return sorted(releases, key=lambda facts: _key(facts["release"]))


def _short(library):
    return os.path.basename(library)


def _where(facts):
    """{function: sorted library names defining it}."""
    where = {}
    for library, names in facts["exports"].items():
        for name in names:
            where.setdefault(name, []).append(_short(library))
    return {name: sorted(libraries) for name, libraries in where.items()}


def _minor(facts):
    return ".".join(facts["release"].split(".")[:2])


def _range(group):
    first, last = _minor(group[0]), _minor(group[-1])
    return first if first == last else "%s to %s" % (first, last)


def _groups(releases, key):
    """Runs of consecutive releases whose key(facts) is equal."""
    runs = []
    for facts in releases:
        if runs and key(runs[-1][-1]) == key(facts):
            runs[-1].append(facts)
        else:
            runs.append([facts])
    return runs


def _names(names, limit=40):
    names = sorted(names)
    shown = ", ".join("`%s`" % name for name in names[:limit])
    return shown + (", ... (%d more)" % (len(names) - limit) if len(names) > limit else "")


def _golden(facts, header):
    measured = facts["headers"].get(header)
    if measured is None:
        return "(no header)"
    return ", ".join(measured["golden"]) or "**none**"


def overview(releases, out):
    out.append("| release | import loads libraries | TF_* / TFE_* functions defined, per library "
               "| ops | stream_executor.h golden | grappler.h golden "
               "| pluggable_profiler.h golden |")
    out.append("|---|---|---|---|---|---|---|")
    for facts in releases:
        libraries = "; ".join(
            "%s %d / %d" % (_short(library), sum(1 for n in names if n.startswith("TF_")),
                            sum(1 for n in names if n.startswith("TFE_")))
            for library, names in sorted(facts["exports"].items()))
        out.append("| %s | %s | %s | %d | %s | %s | %s |" % (
            facts["release"], facts["libraries_loaded"], libraries, facts["op_registry"]["count"],
            _golden(facts, SE), _golden(facts, GRAPPLER), _golden(facts, PROFILER)))


def sizes(releases, out):
    out.append("| release | " + " | ".join(name for _, _, name in KEY_SIZES)
               + " | SE / GO / TP version |")
    out.append("|---|" + "---|" * (len(KEY_SIZES) + 1))
    for facts in releases:
        cells = []
        for header, macro, _ in KEY_SIZES:
            measured = facts["headers"].get(header)
            cells.append("—" if measured is None
                         else str(measured["struct_size_macros"].get(macro, "—")))
        versions = []
        for header, prefix in ((SE, "SE"), (GRAPPLER, "GO"), (PROFILER, "TP")):
            macros = (facts["headers"].get(header) or {}).get("version_macros", {})
            versions.append(".".join(str(macros[prefix + "_" + part])
                                     for part in ("MAJOR", "MINOR", "PATCH"))
                            if prefix + "_MAJOR" in macros else "—")
        out.append("| %s | %s | %s |" % (facts["release"], " | ".join(cells), " / ".join(versions)))


def npd_layouts(releases, out):
    out.append("| release | TFNPD_Api: sizeof / TFNPD_Api_STRUCT_SIZE / members "
               "| TFNPD_PLUGIN_PARAMS_STRUCT_SIZE | PJRT_Api: sizeof / PJRT_Api_STRUCT_SIZE "
               "| PJRT_API_MAJOR.MINOR | pjrt_c_api.h |")
    out.append("|---|---|---|---|---|---|")
    for facts in releases:
        npd = facts["next_pluggable_device"]
        plugin, pjrt = npd["plugin_c_api"], npd["pjrt_c_api"]
        cells = ["—", "—", "—", "—", "—"]
        if plugin:
            api = plugin["structs"]["TFNPD_Api"]
            sizes_ = plugin["struct_size_macros"]
            cells[0] = "%d / %s / %d" % (api["sizeof"], sizes_.get("TFNPD_Api_STRUCT_SIZE", "—"),
                                         len(api["fields"]))
            cells[1] = str(sizes_.get("TFNPD_PLUGIN_PARAMS_STRUCT_SIZE", "—"))
        if pjrt:
            macros = pjrt["version_macros"]
            cells[2] = "%d / %s" % (pjrt["structs"]["PJRT_Api"]["sizeof"],
                                    pjrt["struct_size_macros"].get("PJRT_Api_STRUCT_SIZE", "—"))
            cells[3] = ("%d.%d" % (macros["PJRT_API_MAJOR"], macros["PJRT_API_MINOR"])
                        if "PJRT_API_MAJOR" in macros else "—")
            cells[4] = "`%s`" % pjrt["header"]
        out.append("| %s | %s |" % (facts["release"], " | ".join(cells)))


def declared_not_exported(releases, out):
    out.append("| release | header | declared | defined by no library of the release |")
    out.append("|---|---|---|---|")
    for facts in releases:
        where = _where(facts)
        for header, names in sorted(facts["declared"].items()):
            if not names:
                continue
            missing = [name for name in names
                       if name not in where and name not in PLUGIN_ENTRY_POINTS]
            if missing:
                out.append("| %s | `%s` | %d | %s |" % (facts["release"], header, len(names),
                                                        _names(missing, 20)))


def families(releases, out):
    """Where each function of the headers that differ most between releases is defined."""
    headers = ("tensorflow/c/kernels_experimental.h",
               "tensorflow/c/experimental/next_pluggable_device/c_api.h",
               "tensorflow/c/experimental/grappler/grappler.h")
    out.append("| release | " + " | ".join("`%s`: defined / declared (libraries)"
                                          % h.split("/c/")[-1] for h in headers) + " |")
    out.append("|---|" + "---|" * len(headers))
    for facts in releases:
        where = _where(facts)
        cells = []
        for header in headers:
            names = facts["declared"].get(header)
            if names is None:
                cells.append("(no header)")
                continue
            names = [name for name in names if name not in PLUGIN_ENTRY_POINTS]
            defined = [name for name in names if name in where]
            libraries = sorted({library for name in defined for library in where[name]})
            cells.append("%d / %d (%s)" % (len(defined), len(names),
                                           ", ".join(libraries) or "none"))
        out.append("| %s | %s |" % (facts["release"], " | ".join(cells)))


def changes(releases, out):
    for before, after in zip(releases, releases[1:]):
        lines = []
        old, new = _where(before), _where(after)
        added = [name for name in new if name not in old]
        removed = [name for name in old if name not in new]
        moved = [name for name in new if name in old and new[name] != old[name]]
        if added:
            lines.append("- functions newly defined (%d): %s" % (len(added), _names(added)))
        if removed:
            lines.append("- functions no library defines any more (%d): %s"
                         % (len(removed), _names(removed)))
        if moved:
            pairs = sorted({(" + ".join(old[n]), " + ".join(new[n])) for n in moved})
            lines.append("- functions that changed library (%d): %s" % (
                len(moved), "; ".join("%s → %s" % pair for pair in pairs)))
        if before["libraries_loaded"] != after["libraries_loaded"]:
            lines.append("- `import tensorflow` loads its libraries %s (was %s)"
                         % (after["libraries_loaded"], before["libraries_loaded"]))
        for header in sorted(set(before["headers"]) | set(after["headers"])):
            was, now = before["headers"].get(header), after["headers"].get(header)
            if was == now:
                continue
            if was is None or now is None:
                lines.append("- `%s` %s" % (header, "appears" if was is None else "disappears"))
                continue
            for struct in sorted(set(was["structs"]) | set(now["structs"])):
                a, b = was["structs"].get(struct), now["structs"].get(struct)
                if a == b:
                    continue
                if a is None or b is None:
                    lines.append("- `%s` %s" % (struct, "added" if a is None else "removed"))
                    continue
                gone = [f for f in a["fields"] if f not in b["fields"]]
                came = [f for f in b["fields"] if f not in a["fields"]]
                lines.append("- `%s` (sizeof %d → %d): fields %s%s" % (
                    struct, a["sizeof"], b["sizeof"],
                    ("+ " + ", ".join(came)) if came else "",
                    (" − " + ", ".join(gone)) if gone else ""))
            for macro in sorted(set(was["struct_size_macros"]) | set(now["struct_size_macros"])):
                a, b = was["struct_size_macros"].get(macro), now["struct_size_macros"].get(macro)
                if a != b:
                    lines.append("- `%s` %s → %s" % (macro, a, b))
        old_ops, new_ops = before["op_registry"]["ops"], after["op_registry"]["ops"]
        ops_added = [op for op in new_ops if op not in old_ops]
        ops_removed = [op for op in old_ops if op not in new_ops]
        ops_changed = [op for op in new_ops if op in old_ops and new_ops[op] != old_ops[op]]
        lines.append("- ops: %d → %d; added %d, removed %d%s, changed %d%s" % (
            len(old_ops), len(new_ops), len(ops_added), len(ops_removed),
            " (%s)" % _names(ops_removed, 20) if ops_removed else "", len(ops_changed),
            " (%s)" % _names(ops_changed, 20) if ops_changed else ""))
        out.append("### %s → %s" % (before["release"], after["release"]))
        out.append("")
        out += lines
        out.append("")


def _export_list(name):
    with open(os.path.join(PROFILES_DIR, "exports", name), encoding="utf-8") as source:
        return {line.strip() for line in source if line.strip() and not line.startswith("#")}


def _profiles():
    """[(name, releases, export list)] of the profiles (specs/profiles/*.yaml)."""
    profiles = []
    for path in sorted(glob.glob(os.path.join(PROFILES_DIR, "*.yaml"))):
        fields = {}
        with open(path, encoding="utf-8") as source:
            for line in source:
                key, _, value = line.partition(":")
                fields[key.strip()] = value.strip().strip('"')
        profiles.append((fields["name"], fields["releases"],
                         _export_list(os.path.basename(fields["exports"]))))
    return profiles


def _claims(range_text, facts):
    release = tuple(int(p) for p in facts["release"].split(".")[:2])
    bounds = [tuple(int(p) for p in end.split(".")) for end in range_text.rstrip("+").split("-")]
    if range_text.endswith("+"):
        return release >= bounds[0]
    return bounds[0] <= release <= bounds[-1]


def derived_exports(releases, out):
    """What a plugin can import from each release, derived from the facts, against the
    profile that claims the release."""
    profiles = _profiles()
    mock = reachable_exports.mock_core_exports()
    out.append("| release | reachable | the profile claiming it | in its list, not reachable "
               "| reachable, not in its list |")
    out.append("|---|---|---|---|---|")
    for facts in releases:
        reachable = reachable_exports.reachable(facts, mock)
        claiming = [p for p in profiles if _claims(p[1], facts)]
        if not claiming:
            out.append("| %s | %d | none | | |" % (facts["release"], len(reachable)))
            continue
        name, range_text, listed = claiming[0]
        # The facts hold TF_*/TFE_* only; a list's other names (LogMessageFatal) are outside them.
        listed = {symbol for symbol in listed if symbol.startswith(("TF_", "TFE_"))}
        out.append("| %s | %d | `%s` (%s) | %s | %s |" % (
            facts["release"], len(reachable), name, range_text,
            _names(listed - reachable, 12) or "—", _names(reachable - listed, 12) or "—"))


def shared(releases, out):
    aspects = (
        ("exports (every library's TF_*/TFE_* functions) and RTLD mode",
         lambda f: (f["exports"], f["libraries_loaded"])),
        ("functions defined anywhere (library aside)", lambda f: sorted(_where(f))),
        ("header layouts (structs, *_STRUCT_SIZE, version macros)", lambda f: f["headers"]),
        ("declared functions", lambda f: f["declared"]),
        ("NextPluggableDevice layouts (TFNPD_Api, PJRT_Api)", lambda f: f["next_pluggable_device"]),
        ("op registry", lambda f: f["op_registry"]["sha256"]),
        ("everything", lambda f: {k: v for k, v in f.items() if k != "release"}),
    )
    out.append("| facts | releases that share them (consecutive runs) |")
    out.append("|---|---|")
    for label, key in aspects:
        runs = _groups(releases, key)
        out.append("| %s | %s |" % (label, "; ".join(
            _range(run) if len(run) > 1 else run[0]["release"] for run in runs)))


def main():
    releases = load()
    out = [
        "# TensorFlow releases, measured on their own wheels",
        "",
        "Generated by `specs/profiles/audit/releases_doc.py` from `specs/profiles/releases/*.json`;",
        "do not edit. The facts come from `specs/profiles/audit/release_audit.py --all` (the",
        "tensorflow-cpu wheel of the last patch of every minor release, `nm -D --defined-only`, the",
        "wheel's own headers compiled with `cc`, `TF_GetAllOpList`); see that folder's README.",
        "",
        "## Per release",
        "",
        "Libraries: each shared library of the wheel that defines a `TF_*` or `TFE_*` function, with",
        "the counts (`TF_` / `TFE_`). `import tensorflow` loads them `RTLD_GLOBAL` when the wheel",
        "ships `python/pywrap_dlopen_global_flags.py` (every library's functions then resolve a",
        "plugin's imports), else `RTLD_LOCAL` (a plugin sees only the libraries it links). Golden:",
        "the `specs/abi` layout files whose every struct of that header the release reproduces",
        "exactly; **none** is a layout no golden file has.",
        "",
    ]
    overview(releases, out)
    out += ["", "## Struct sizes", "",
            "The `*_STRUCT_SIZE` values a plugin built against that release's headers writes.", ""]
    sizes(releases, out)
    out += ["", "## NextPluggableDevice tables", "",
            "`TFNPD_Api` (what `TFNPD_InitPlugin` returns) and `PJRT_Api` (what `GetPjrtApi`",
            "returns) as the release's own headers compile (`npd_layouts.py`); — where the wheel",
            "ships no such header.", ""]
    npd_layouts(releases, out)
    out += ["", "## Header families by release", "",
            "Functions each header declares that some library of the release defines, and which.", ""]
    families(releases, out)
    out += ["", "## Declared but not defined", "",
            "A plugin compiled against the release's own header that calls one of these is refused",
            "at load (`undefined symbol`).", ""]
    declared_not_exported(releases, out)
    out += ["", "## What a plugin can import, against the profiles", "",
            "Reachable: the functions of the mock core's export list (`specs/profiles/exports/`",
            "`newest.txt` + `newest_not_exported.txt`) that the release lets a plugin bind to:",
            "every library's under RTLD_GLOBAL, `libtensorflow_framework.so.2`'s (the library a",
            "plugin links) under RTLD_LOCAL. This rule gives exactly `tf2_15.txt` on 2.15.1 and",
            "`newest.txt` on 2.21.0, the two lists measured on wheels. A name in the",
            "profile's list that is not reachable: a plugin linking only the framework library",
            "that imports it is accepted by the profile and refused by that release; the other",
            "way, refused by the profile and loaded by the release. Under RTLD_LOCAL the functions",
            "of `_pywrap_tensorflow_internal.so` / `libtensorflow_cc.so.2` (grappler.h's, for",
            "instance) are reachable only to a plugin that links that library itself: `tf2.5`,",
            "`tf2.6`, `tf2.7` and `tf2.10` add `_pywrap_tensorflow_internal.so`'s for such a",
            "plugin (`pywrap_exports`), `tf2.15` does not model it. Names outside the facts (the",
            "`LogMessageFatal` symbols",
            "some lists carry, measured by hand) are left out here.", ""]
    derived_exports(releases, out)
    out += ["", "## Releases that share facts", ""]
    shared(releases, out)
    out += ["", "## What changed between consecutive releases", ""]
    changes(releases, out)
    sys.stdout.write("\n".join(out).rstrip("\n") + "\n")


if __name__ == "__main__":
    main()

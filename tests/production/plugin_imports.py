#!/usr/bin/env python3
"""Non-libc imports of public plugin binaries, with version node and which TF library exports them."""
import subprocess, sys, re, json, collections, os

SYSTEM_VERSIONS = re.compile(r"^(GLIBC|GLIBCXX|CXXABI|GCC)_")
SYSTEM_LIBS = ("libc.so", "libm.so", "libstdc++", "libgcc_s", "libpthread", "librt", "libdl", "ld-linux", "libz.so")

def dynsyms(path):
    out = subprocess.run(["objdump", "-T", path], capture_output=True, text=True).stdout
    undefined, defined = [], set()
    for line in out.splitlines():
        m = re.match(r"^[0-9a-f]+ (.{7}) (\S+)\s+[0-9a-f]+\s+(?:(\(?[^\s)]+\)?)\s+)?(\S+)$", line)
        if not m: continue
        flags, section, version, name = m.groups()
        version = (version or "").strip("()")
        if section == "*UND*":
            undefined.append((name, version, "w" in flags))
        else:
            defined.add(name)
    return undefined, defined

def needed(path):
    out = subprocess.run(["readelf", "-d", path], capture_output=True, text=True).stdout
    return re.findall(r"\(NEEDED\)\s+Shared library: \[(.+)\]", out)

def exports(lib):
    out = subprocess.run(["nm", "-D", "--defined-only", lib], capture_output=True, text=True).stdout
    return {l.split()[-1].split("@")[0] for l in out.splitlines() if l.strip()}

SYSTEM = ["/lib/x86_64-linux-gnu/" + n for n in ("libc.so.6", "libm.so.6", "libstdc++.so.6", "libgcc_s.so.1", "libz.so.1", "libdl.so.2", "libpthread.so.0", "librt.so.1")]

def main():
    spec = json.load(open(sys.argv[1]))
    system = set()
    for lib in SYSTEM: system |= exports(lib)
    tf = {rel: {name: exports(p) for name, p in libs.items()} for rel, libs in spec["tensorflow"].items()}
    core = exports(spec["core"])
    rows = collections.OrderedDict()
    for plugin, files in spec["plugins"].items():
        own = set()
        for f in files + spec.get("bundled", {}).get(plugin, []): own |= dynsyms(f)[1]
        for f in files:
            for name, version, weak in dynsyms(f)[0]:
                if SYSTEM_VERSIONS.match(version) or name in own or name in system: continue
                if name.startswith(("_ITM_", "__gmon_start__", "_Jv_", "__cxa_", "_ZGTt")): continue
                row = rows.setdefault(name, {"version": set(), "plugins": set(), "weak": True})
                row["version"].add(version or "-")
                row["plugins"].add(plugin + ("" if len(files) == 1 else ":" + os.path.basename(f)))
                row["weak"] = row["weak"] and weak
    result = []
    for name, row in rows.items():
        where = {rel: [lib for lib, syms in libs.items() if name in syms] for rel, libs in tf.items()}
        result.append({"symbol": name, "version": sorted(row["version"]), "plugins": sorted(row["plugins"]),
                       "weak": row["weak"], "tensorflow": where, "core": name in core})
    json.dump(result, sys.stdout, indent=1)

main()

"""A golden stream_executor.h layout (specs/abi/tf_layout*.json format) written from one release's
committed facts (specs/profiles/releases/<version>.json), for a layout no golden file had.

The offsets, sizes, `sizeof` and `*_STRUCT_SIZE` values are the ones `layouts.py` compiled from
that wheel's own headers. The facts carry no C types: each member's `c_type` and `kind` are those
of the same member (same struct, name and size) in an existing golden file, and a member no golden
file has stops the script, so nothing is guessed.

usage: python3 specs/profiles/audit/golden_layout.py 2.7.4 > /tmp/layout.json && mv /tmp/layout.json specs/abi/tf_layout_2.7.4.json
"""
import json
import os
import sys

HEADER = "tensorflow/c/experimental/stream_executor/stream_executor.h"
HERE = os.path.dirname(os.path.abspath(__file__))
ABI_DIR = os.path.join(HERE, "..", "..", "abi")
RELEASES_DIR = os.path.join(HERE, "..", "releases")


def _known_members():
    """{(struct, member, size): (c_type, kind)} and {struct: size macro} of the golden files."""
    members, macros = {}, {}
    for name in sorted(os.listdir(ABI_DIR)):
        if not name.startswith("tf_layout"):
            continue
        with open(os.path.join(ABI_DIR, name)) as f:
            data = json.load(f)
        if data.get("header") != HEADER:
            continue
        for struct, body in data["structs"].items():
            macros[struct] = body["struct_size_macro"]
            for field in body["fields"]:
                members[(struct, field["name"], field["size"])] = (field["c_type"], field["kind"])
    return members, macros


def golden_layout(version):
    with open(os.path.join(RELEASES_DIR, version + ".json")) as f:
        facts = json.load(f)["headers"][HEADER]
    members, macros = _known_members()
    structs = {}
    for struct, body in facts["structs"].items():
        macro = macros[struct]
        value = facts["struct_size_macros"][macro]
        fields, end_field = [], None
        for text in body["fields"]:
            name, place = text.split("@")
            offset, size = (int(part) for part in place.split(":"))
            if (struct, name, size) not in members:
                sys.exit("golden_layout: %s.%s (%d bytes) is in no golden file" % (struct, name, size))
            c_type, kind = members[(struct, name, size)]
            fields.append({"name": name, "offset": offset, "size": size, "c_type": c_type,
                           "kind": kind})
            if offset + size == value:
                end_field = name
        if end_field is None:
            sys.exit("golden_layout: no member of %s ends at %s = %d" % (struct, macro, value))
        structs[struct] = {"sizeof": body["sizeof"], "alignof": body["alignof"],
                           "struct_size_macro": macro, "struct_size_value": value,
                           "struct_size_end_field": end_field, "fields": fields}
    return {
        "abi": "x86-64 Linux LP64 (System V), cc (gcc) on the wheel's own headers",
        "method": "Compiled from the tensorflow-cpu %s wheel's headers "
                  "(tensorflow/include/%s) by specs/profiles/audit/layouts.py: member names read "
                  "from the header, offsetof/sizeof printed by the compiled program "
                  "(specs/profiles/releases/%s.json). Written into this format by "
                  "specs/profiles/audit/golden_layout.py; c_type/kind taken from the same member "
                  "in the other golden files." % (version, HEADER, version),
        "TF_Bool": "unsigned char (macro in c_api_macros.h)",
        "TF_OFFSET_OF_END": "offsetof(TYPE, MEMBER) + sizeof(((TYPE *)0)->MEMBER)",
        "header": HEADER,
        "version": {"wheel": "tensorflow-cpu %s" % version, "path": "tensorflow/include/" + HEADER,
                    "note": "compiled from the tensorflow-cpu %s wheel's headers" % version},
        "is_newest_known_layout": False,
        "structs": structs,
    }


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    json.dump(golden_layout(sys.argv[1]), sys.stdout, indent=1)
    sys.stdout.write("\n")

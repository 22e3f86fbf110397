#!/usr/bin/env python3
"""Validates a JSON document against a JSON Schema (any draft the schema declares).

Exit codes: 0 valid, 1 invalid (errors printed), 77 jsonschema not installed (CTest
reports the test as skipped). Debian: apt-get install python3-jsonschema.
"""
import json
import sys


def main() -> int:
    if len(sys.argv) != 3:
        print("usage: validate_json_schema.py SCHEMA INSTANCE", file=sys.stderr)
        return 2
    try:
        import jsonschema
    except ImportError:
        print("jsonschema is not installed (apt-get install python3-jsonschema)", file=sys.stderr)
        return 77
    with open(sys.argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    with open(sys.argv[2], encoding="utf-8") as f:
        instance = json.load(f)
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    validator = validator_class(schema, format_checker=validator_class.FORMAT_CHECKER
                                if hasattr(validator_class, "FORMAT_CHECKER")
                                else jsonschema.FormatChecker())
    errors = sorted(validator.iter_errors(instance), key=lambda e: list(e.absolute_path))
    for error in errors:
        path = "/".join(str(p) for p in error.absolute_path) or "(root)"
        print(f"{sys.argv[2]}: {path}: {error.message}", file=sys.stderr)
    if errors:
        return 1
    print(f"{sys.argv[2]}: valid against {sys.argv[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

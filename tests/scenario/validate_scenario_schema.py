#!/usr/bin/env python3
"""Validates scenario YAML files against specs/scenarios/scenario.schema.json.

usage: validate_scenario_schema.py [--expect-invalid] SCHEMA FILE...
Exit codes: 0 as expected, 1 not as expected (errors printed), 77 PyYAML or jsonschema missing
(CTest reports the test as skipped; Debian: python3-yaml python3-jsonschema).
"""
import json
import sys


def main() -> int:
    args = sys.argv[1:]
    expect_invalid = bool(args) and args[0] == "--expect-invalid"
    if expect_invalid:
        args = args[1:]
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        import jsonschema
        import yaml
    except ImportError as error:
        print(f"skipped: {error}", file=sys.stderr)
        return 77
    with open(args[0], encoding="utf-8") as f:
        schema = json.load(f)
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    validator = validator_class(schema)
    failed = False
    for path in args[1:]:
        with open(path, encoding="utf-8") as f:
            # Scenario files use YAML 1.2 hex (0x..) literals; PyYAML (YAML 1.1) reads them as
            # ints too, so the same schema serves both.
            document = yaml.safe_load(f)
        errors = list(validator.iter_errors(document))
        if expect_invalid and not errors:
            print(f"{path}: expected schema errors, found none")
            failed = True
        if not expect_invalid:
            for error in errors:
                print(f"{path}: {'/'.join(str(p) for p in error.absolute_path)}: {error.message}")
                failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

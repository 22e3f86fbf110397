"""Validates kernel scenario files against specs/scenarios/kernel_scenario.schema.json."""
import json
import sys

import jsonschema
import yaml


def main():
    schema = json.load(open(sys.argv[1]))
    validator = jsonschema.Draft202012Validator(schema)
    failed = False
    for path in sys.argv[2:]:
        for error in validator.iter_errors(yaml.safe_load(open(path))):
            print(f"{path}: {'/'.join(map(str, error.path))}: {error.message}")
            failed = True
    sys.exit(1 if failed else 0)


main()

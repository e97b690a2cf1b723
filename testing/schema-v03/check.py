#!/usr/bin/env python3
"""Checks documents against the A2A 0.3 JSON Schema (a2a-v0.3.schema.json,
a copy of ../shared/spec's) with the `jsonschema` package.

Input on stdin, one case per line: {"name": ..., "definition": "Task",
"document": {...}}. For each case it prints `PASS name` or `FAIL name:
<first error>`, then `N passed, M failed`, and exits 1 on any failure.
"""
import json
import pathlib
import sys

import jsonschema

SCHEMA = json.loads((pathlib.Path(__file__).parent / "a2a-v0.3.schema.json").read_text())


def validator(definition):
    schema = {"$ref": "#/definitions/" + definition, "definitions": SCHEMA["definitions"]}
    return jsonschema.Draft7Validator(schema)


def main():
    passed = failed = 0
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        case = json.loads(line)
        if case["definition"] not in SCHEMA["definitions"]:
            print(f"FAIL {case['name']}: no definition {case['definition']!r}")
            failed += 1
            continue
        errors = sorted(validator(case["definition"]).iter_errors(case["document"]), key=str)
        if errors:
            best = jsonschema.exceptions.best_match(errors)
            path = "/".join(str(p) for p in best.absolute_path)
            print(f"FAIL {case['name']}: at /{path}: {best.message}")
            failed += 1
        else:
            print(f"PASS {case['name']}")
            passed += 1
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

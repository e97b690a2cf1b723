#!/usr/bin/env python3
"""Protobuf referee for a2a-core's binary encoding (run by the
a2a-wire-oracle crate with the wire oracle's virtualenv).

Reads one case per line, TYPE<TAB>JSON<TAB>BASE64: a2a-core's ProtoJSON of
a value and a2a-core's protobuf bytes of the same value. Parses the JSON
with Google's json_format and the bytes with Google's ParseFromString into
the message type TYPE of the official compiled A2A v1.0 proto, and checks
that the two are the same message. For each passing case it prints
`ok <BASE64>`, Google's own deterministic encoding of the message, so the
caller can check the other direction (Google's bytes through its decoder).
Ends with 'N passed, M failed'; exit status 1 when any case failed.
"""
import base64
import sys

from google.protobuf import json_format, text_format

from a2a.types import a2a_pb2


def main():
    passed = failed = 0
    for n, line in enumerate(sys.stdin.read().split("\n"), 1):
        if not line.strip():
            continue
        try:
            type_name, json_text, b64 = line.split("\t")
            desc = a2a_pb2.DESCRIPTOR.message_types_by_name.get(type_name)
            if desc is None:
                raise ValueError(f"unknown type {type_name!r}")
            cls = getattr(a2a_pb2, type_name)
            from_json = cls()
            json_format.Parse(json_text, from_json)
            from_bytes = cls()
            from_bytes.ParseFromString(base64.b64decode(b64))
        except Exception as e:  # any failure is this case's verdict
            failed += 1
            print(f"line {n}: FAIL {type(e).__name__}: {e}")
            continue
        if from_json == from_bytes:
            passed += 1
            ours = base64.b64encode(from_json.SerializeToString(deterministic=True)).decode()
            print(f"ok {ours}")
        else:
            failed += 1
            a = text_format.MessageToString(from_json, as_one_line=True)
            b = text_format.MessageToString(from_bytes, as_one_line=True)
            print(f"line {n}: FAIL {type_name}: JSON gives {{{a}}} but bytes give {{{b}}}")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

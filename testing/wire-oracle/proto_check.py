#!/usr/bin/env python3
"""Protobuf referee for a2a-core's binary encoding (run by the
a2a-wire-oracle crate with the wire oracle's virtualenv).

Reads one case per line, TYPE<TAB>JSON<TAB>BASE64: a2a-core's ProtoJSON of
a value and a2a-core's protobuf bytes of the same value. Parses the JSON
with Google's json_format and the bytes with Google's ParseFromString into
the message type TYPE of the official compiled A2A v1.0 proto (or of the
proto WIRE_ORACLE_PROTO names, such as the 1.1 draft's, compiled here with
grpc_tools' protoc as the wire oracle does), and checks that the two are
the same message. For each passing case it prints
`ok <BASE64>`, Google's own deterministic encoding of the message, so the
caller can check the other direction (Google's bytes through its decoder).
Ends with 'N passed, M failed'; exit status 1 when any case failed.
"""
import base64
import hashlib
import importlib
import os
import shutil
import sys
import tempfile

from google.protobuf import json_format, text_format


def load_proto():
    """The compiled A2A proto module: a2a-sdk's v1.0, or the a2a.proto that
    WIRE_ORACLE_PROTO names (the wire oracle's own variable, which the
    a2a-wire-oracle crate sets from its `draft-1-1` feature), compiled
    once per content into a cache folder under TMPDIR. Its google/api
    imports are googleapis-common-protos' (beside their _pb2 modules), the
    well-known types grpc_tools' own."""
    path = os.environ.get("WIRE_ORACLE_PROTO")
    if not path:
        from a2a.types import a2a_pb2 as sdk
        return sdk
    import grpc_tools
    from google.api import field_behavior_pb2
    from grpc_tools import protoc

    src = os.path.abspath(path)
    with open(src, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()[:16]
    stem = os.path.splitext(os.path.basename(src))[0]
    parent = os.environ.get("TMPDIR", "/tmp")
    cache = os.path.join(parent, f"a2a-proto-check-{digest}")
    if not os.path.exists(os.path.join(cache, stem + "_pb2.py")):
        # Compile beside the cache and move it in whole, so a concurrent
        # run never imports a half-written module.
        scratch = tempfile.mkdtemp(prefix="a2a-proto-check-", dir=parent)
        google_root = os.path.dirname(os.path.dirname(os.path.dirname(field_behavior_pb2.__file__)))
        well_known = os.path.join(os.path.dirname(grpc_tools.__file__), "_proto")
        args = ["protoc", f"-I{os.path.dirname(src)}", f"-I{google_root}", f"-I{well_known}",
                f"--python_out={scratch}", src]
        if protoc.main(args) != 0:
            shutil.rmtree(scratch, ignore_errors=True)
            raise SystemExit(f"protoc failed on {path}")
        try:
            os.rename(scratch, cache)
        except OSError:  # another run got there first
            shutil.rmtree(scratch, ignore_errors=True)
    sys.path.insert(0, cache)
    return importlib.import_module(stem + "_pb2")


a2a_pb2 = load_proto()


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

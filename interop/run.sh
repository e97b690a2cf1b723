#!/usr/bin/env bash
# The interoperability suite of issue 8: the official Python (a2a-sdk) and
# JavaScript (@a2a-js/sdk) SDKs against a2a-core, in both directions, over
# JSON-RPC, HTTP+JSON and gRPC (issue 16), on loopback.
#
#   interop/run.sh [--mode self|rust|signing|v0_3|all] [--build-rust] [--skip-install]
#
# Modes (default all):
#   self  SDK client checks against the SDK agents, every pairing and
#         binding: proves the check programs and the agents are known-good
#         without any Rust.
#   rust  the SDK client checks against the a2a-core reference agent; our
#         client and conformance runner against the SDK agents.
#   signing  the card signing matrix (spec 8.4, interop/signing/): each of
#         a2a-core, the Python SDK and the JS SDK signs the cards there with
#         ES256 and EdDSA, and each verifies every signed card.
#   v0_3  A2A 0.3 (issue 17), with the SDKs' 0.3 lines pinned in
#         interop/python03 (a2a-sdk 0.3.26) and interop/node03
#         (@a2a-js/sdk 0.3.14), over JSON-RPC and HTTP+JSON:
#         (a) their clients against their agents, every pairing;
#         (b) their clients against the reference agent started with
#             --v0-3 (A2A_REFERENCE_AGENT);
#         (c) A2A_CLIENT_CHECKS against the 0.3 SDK agents (our client
#             reads their 0.3 cards and falls back to 0.3);
#         (d) the 1.0 SDK agents with their 0.3 layer on (agent.py
#             --v0-3: enable_v0_3_compat; agent.mjs --v0-3: legacyCompat),
#             checked by the 0.3 SDK clients.
#   all   all four.
#
# Rust programs, each optional (a direction without its program is skipped
# with a message saying so):
#   A2A_REFERENCE_AGENT  the a2a-reference-agent binary (--build-rust builds
#                        it with cargo and uses target/release's)
#   A2A_CLIENT_CHECKS    a program with the check programs' interface
#                        (--url URL --binding jsonrpc|rest|grpc [--bearer T]) that
#                        drives an agent with the a2a-core client transport:
#                        interop/rust-client-checks, which --build-rust builds
#                        once the tree has the client side of a2a-transport
#                        and a2a-hyper
#   A2A_REFERENCE_AGENT_ARGS  extra flags for that agent in the rust mode
#                        (--draft-1-1 with a draft-1-1 build: the 1.0 SDK
#                        clients against an agent that also serves 1.1)
#   A2A_CONFORMANCE      the a2a-conformance binary (run as --url URL)
#   A2A_CARD_TOOL        the a2a-signing `card_tool` example (--build-rust
#                        builds it), the a2a-core side of the signing matrix
#   A2A_EXAMPLE_CLIENT   the a2a-examples `client` binary (branch examples):
#                        until A2A_CLIENT_CHECKS exists, a smoke test of our
#                        client against the SDK agents (discovery, send,
#                        stream, get, cancel, list; judged by its exit code)
#
# gRPC (spec 10): each SDK agent also serves gRPC on a second port and
# advertises it in its card (`GRPC`, url `host:port`); every check program
# takes `--binding grpc`, reads the card over HTTP and calls that interface.
# The gRPC pairs that involve a2a-core run when a2a-core has the side they
# need: the SDK clients against the reference agent when its card offers a
# GRPC interface, A2A_CLIENT_CHECKS against the SDK agents when its card
# check passes over `--binding grpc` (a program or client without gRPC
# fails it with a usage error or a failed discovery). Otherwise the
# pair is skipped with a message, or fails the run under
# INTEROP_GRPC=require (what .ci/run sets once both sides are on main).
#
# Everything it needs it installs itself: a virtualenv with the pinned
# requirements in interop/python/.venv, `npm ci` in interop/node. It starts
# every agent on a free loopback port, waits for its card (bounded), kills
# all it started on exit, writes logs to $INTEROP_OUT (target/interop), and
# ends with a summary table and the line `N passed, M failed`.
#
# A FAIL that interop/known-deviations.txt lists (an SDK departing from the
# spec, see interop/FINDINGS.md) is reported as a known deviation and does
# not fail the run; any other FAIL does.
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
OUT="${INTEROP_OUT:-$ROOT/target/interop}"
MODE=all
BUILD_RUST=0
SKIP_INSTALL=0
BEARER="interop-token-1"
INTEROP_GRPC="${INTEROP_GRPC:-auto}"
PY_SDK=1.3.0
JS_SDK=1.3.0
PY03_SDK=0.3.26
JS03_SDK=0.3.14

while [ $# -gt 0 ]; do
  case "$1" in
    --mode) MODE="$2"; shift 2 ;;
    --mode=*) MODE="${1#--mode=}"; shift ;;
    --build-rust) BUILD_RUST=1; shift ;;
    --skip-install) SKIP_INSTALL=1; shift ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d'; exit 0 ;;
    *) echo "unknown argument: $1 (see --help)" >&2; exit 2 ;;
  esac
done
case "$MODE" in self|rust|signing|v0_3|all) ;; *) echo "--mode must be self, rust, signing, v0_3 or all" >&2; exit 2 ;; esac
case "$INTEROP_GRPC" in auto|require) ;; *) echo "INTEROP_GRPC must be auto or require" >&2; exit 2 ;; esac
mkdir -p "$OUT"

PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null; done
  for pid in "${PIDS[@]}"; do
    for _ in $(seq 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null
  done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

say() { printf '== %s\n' "$*"; }

# --- install ----------------------------------------------------------------
PY="$HERE/python/.venv/bin/python"
if [ "$SKIP_INSTALL" = 0 ]; then
  say "installing a2a-sdk==$PY_SDK (pinned closure) into interop/python/.venv"
  [ -x "$PY" ] || python3 -m venv "$HERE/python/.venv" || exit 1
  timeout 300 "$PY" -m pip install -q --disable-pip-version-check -r "$HERE/python/requirements.txt" || exit 1
  say "installing @a2a-js/sdk@$JS_SDK (package-lock.json) into interop/node/node_modules"
  (cd "$HERE/node" && timeout 300 npm ci --no-audit --no-fund --loglevel=error) || exit 1
fi
PY03="$HERE/python03/.venv/bin/python"
if [ "$SKIP_INSTALL" = 0 ] && { [ "$MODE" = v0_3 ] || [ "$MODE" = all ]; }; then
  say "installing a2a-sdk==$PY03_SDK (pinned closure) into interop/python03/.venv"
  [ -x "$PY03" ] || python3 -m venv "$HERE/python03/.venv" || exit 1
  timeout 300 "$PY03" -m pip install -q --disable-pip-version-check -r "$HERE/python03/requirements.txt" || exit 1
  say "installing @a2a-js/sdk@$JS03_SDK (package-lock.json) into interop/node03/node_modules"
  (cd "$HERE/node03" && timeout 300 npm ci --no-audit --no-fund --loglevel=error) || exit 1
fi

NOTES=()
if [ "$BUILD_RUST" = 1 ] && [ -z "${A2A_REFERENCE_AGENT:-}" ]; then
  say "building a2a-reference-agent (cargo build --release)"
  (cd "$ROOT" && cargo build --release -q -p a2a-reference-agent) || exit 1
  A2A_REFERENCE_AGENT="$ROOT/target/release/a2a-reference-agent"
fi
if [ "$BUILD_RUST" = 1 ] && [ -z "${A2A_CLIENT_CHECKS:-}" ]; then
  if [ -f "$ROOT/crates/a2a-hyper/Cargo.toml" ]; then
    say "building interop/rust-client-checks (our client's checks)"
    (cd "$HERE/rust-client-checks" && CARGO_TARGET_DIR="$ROOT/target" cargo build -q) || exit 1
    A2A_CLIENT_CHECKS="$ROOT/target/debug/a2a-interop-client-checks"
  else
    NOTES+=("interop/rust-client-checks not built: it needs a2a-hyper and the client side of a2a-transport in this tree")
  fi
fi

if [ "$BUILD_RUST" = 1 ] && [ -z "${A2A_CARD_TOOL:-}" ] && [ -f "$ROOT/crates/a2a-signing/Cargo.toml" ]; then
  say "building the a2a-signing card_tool example"
  (cd "$ROOT" && cargo build -q -p a2a-signing --example card_tool) || exit 1
  A2A_CARD_TOOL="$ROOT/target/debug/examples/card_tool"
fi

# --- agents -----------------------------------------------------------------
free_port() {
  "$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# start_agent NAME PORT COMMAND...: starts it, waits up to 30 s for its card.
start_agent() {
  local name="$1" port="$2"; shift 2
  "$@" >"$OUT/agent-$name.log" 2>&1 &
  local pid=$!
  PIDS+=("$pid")
  local deadline=$((SECONDS + 30))
  until curl -sf -m 2 -o /dev/null "http://127.0.0.1:$port/.well-known/agent-card.json"; do
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "agent $name exited early; its log ($OUT/agent-$name.log):"; tail -20 "$OUT/agent-$name.log"; return 1
    fi
    if [ $SECONDS -ge $deadline ]; then
      echo "agent $name not ready on port $port after 30 s"; tail -20 "$OUT/agent-$name.log"; return 1
    fi
    sleep 0.2
  done
  echo "agent $name ready at http://127.0.0.1:$port (pid $pid)"
}

# --- checks -----------------------------------------------------------------
ROWS=()
SKIPPED_DIRECTIONS=()
TOTAL_PASS=0
TOTAL_FAIL=0
UNEXPECTED=0
KNOWN_FILE="$HERE/known-deviations.txt"

# is_known CLIENT SERVER BINDING CHECK: prints the finding id if listed.
is_known() {
  [ -f "$KNOWN_FILE" ] || return 1
  awk -v c="$1" -v s="$2" -v b="$3" -v k="$4" '
    /^[[:space:]]*(#|$)/ { next }
    ($1 == c || $1 == "*") && ($2 == s || $2 == "*") && ($3 == b || $3 == "*") && $4 == k { print $5; found = 1; exit }
    END { exit !found }' "$KNOWN_FILE"
}

# run_checks CLIENT SERVER BINDING URL COMMAND...
run_checks() {
  local client="$1" server="$2" binding="$3" url="$4"; shift 4
  local log="$OUT/checks-$client-vs-$server-$binding.log"
  say "$client client -> $server agent over $binding"
  timeout 240 "$@" --url "$url" --binding "$binding" --bearer "$BEARER" >"$log" 2>&1
  local rc=$?
  cat "$log"
  local last passed failed known=() unexpected=0 line name id
  last="$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)"
  passed="$(echo "$last" | sed -E 's/^([0-9]+) passed.*/\1/')"
  failed="$(echo "$last" | sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/')"
  [ -n "$last" ] || { passed=0; failed=1; unexpected=1; echo "(no summary line; exit code $rc)"; }
  while IFS= read -r line; do
    name="$(echo "$line" | sed -E 's/^FAIL ([^:]+):.*/\1/')"
    if id="$(is_known "$client" "$server" "$binding" "$name")"; then
      known+=("$name($id)")
    else
      unexpected=$((unexpected + 1))
    fi
  done < <(grep '^FAIL ' "$log")
  # an expected failure that now passes: the list is stale, say so
  if [ -f "$KNOWN_FILE" ]; then
    while read -r kc ks kb kcheck kid _; do
      case "$kc" in ''|\#*) continue ;; esac
      { [ "$kc" = "$client" ] || [ "$kc" = "*" ]; } && { [ "$ks" = "$server" ] || [ "$ks" = "*" ]; } &&
        { [ "$kb" = "$binding" ] || [ "$kb" = "*" ]; } && grep -q "^PASS $kcheck\$" "$log" &&
        echo "note: known deviation $kid ($kcheck) now passes; update interop/known-deviations.txt"
    done < "$KNOWN_FILE"
  fi
  TOTAL_PASS=$((TOTAL_PASS + passed))
  TOTAL_FAIL=$((TOTAL_FAIL + unexpected))
  UNEXPECTED=$((UNEXPECTED + unexpected))
  local verdict=ok
  [ "$unexpected" -gt 0 ] && verdict=FAIL
  local knowntext="${known[*]:-}"
  ROWS+=("$client|$server|$binding|$passed/$((passed + failed))|${knowntext:--}|$verdict")
}

PY_CHECKS=("$PY" "$HERE/python/client_checks.py")
declare -A BINDINGS_V03=([jsonrpc]=JSONRPC [rest]=HTTP+JSON)
JS_CHECKS=(node "$HERE/node/client_checks.mjs")
NEED_SDK_AGENTS=0
{ [ "$MODE" = self ] || [ "$MODE" = all ]; } && NEED_SDK_AGENTS=1
{ [ "$MODE" = rust ] || [ "$MODE" = all ]; } && { [ -n "${A2A_CLIENT_CHECKS:-}" ] || [ -n "${A2A_CONFORMANCE:-}" ] ||
  [ -n "${A2A_EXAMPLE_CLIENT:-}" ]; } && NEED_SDK_AGENTS=1

if [ "$NEED_SDK_AGENTS" = 1 ]; then
  PY_PORT="$(free_port)"
  PY_GRPC_PORT="$(free_port)"
  start_agent python-sdk "$PY_PORT" "$PY" "$HERE/python/agent.py" --port "$PY_PORT" --grpc-port "$PY_GRPC_PORT" \
    --bearer "$BEARER" || exit 1
  JS_PORT="$(free_port)"
  JS_GRPC_PORT="$(free_port)"
  start_agent node-sdk "$JS_PORT" node "$HERE/node/agent.mjs" --port "$JS_PORT" --grpc-port "$JS_GRPC_PORT" \
    --bearer "$BEARER" || exit 1
fi

# grpc_missing CLIENT SERVER WHY: a gRPC pair that cannot run because
# a2a-core lacks a side; a skip, or a failure under INTEROP_GRPC=require.
grpc_missing() {
  if [ "$INTEROP_GRPC" = require ]; then
    echo "FAIL: $1 -> $2 over grpc cannot run: $3 (INTEROP_GRPC=require)"
    UNEXPECTED=$((UNEXPECTED + 1)); TOTAL_FAIL=$((TOTAL_FAIL + 1))
    ROWS+=("$1|$2|grpc|not run|$3|FAIL")
  else
    SKIPPED_DIRECTIONS+=("$1 -> $2 over grpc: $3")
  fi
}

# offers_grpc PORT: the agent's card lists a GRPC interface.
offers_grpc() {
  curl -sf -m 5 "http://127.0.0.1:$1/.well-known/agent-card.json" | "$PY" -c '
import json, sys
card = json.load(sys.stdin)
sys.exit(0 if any(i.get("protocolBinding") == "GRPC" for i in card.get("supportedInterfaces", [])) else 1)'
}

# --- the signing matrix (spec 8.4) ------------------------------------------
# signing_matrix: every signer signs every card with every algorithm; every
# verifier checks every signed card. A row per (verifier, signer, algorithm,
# card); a FAIL listed in known-deviations.txt (client = verifier, server =
# signer, binding = algorithm, check = sign:CARD or verify:CARD) is a finding.
signing_matrix() {
  declare -A TOOL=([python-sdk]="$PY $HERE/python/signing.py" [node-sdk]="node $HERE/node/signing.mjs")
  local impls=(python-sdk node-sdk)
  if [ -n "${A2A_CARD_TOOL:-}" ]; then
    TOOL[a2a-core]="$A2A_CARD_TOOL"
    impls=(a2a-core python-sdk node-sdk)
  else
    SKIPPED_DIRECTIONS+=("signing matrix without a2a-core: A2A_CARD_TOOL not set (or use --build-rust)")
  fi
  local keys="$ROOT/crates/a2a-signing/tests/keys" alg card signer verifier signed check id verdict
  for alg in es256 eddsa; do
    for card in card card-empty-required; do
      for signer in "${impls[@]}"; do
        signed="$OUT/signed-$signer-$alg-$card.json"
        say "signing: $signer signs $card with $alg"
        if ! ${TOOL[$signer]} sign --key "$keys/$alg.jwk.json" --card "$HERE/signing/$card.json" \
            >"$signed" 2>"$signed.log"; then
          cat "$signed.log"
          check="sign:$card"
          if id="$(is_known "$signer" "$signer" "$alg" "$check")"; then verdict=ok; else
            verdict=FAIL; id=-; UNEXPECTED=$((UNEXPECTED + 1)); TOTAL_FAIL=$((TOTAL_FAIL + 1)); fi
          ROWS+=("$signer|$signer|$alg|sign:$card 0/1|$id|$verdict")
          continue
        fi
        for verifier in "${impls[@]}"; do
          check="verify:$card"
          if out="$(${TOOL[$verifier]} verify --key "$keys/$alg.jwk.json" --card "$signed" 2>&1)"; then
            echo "PASS $verifier verifies $signer's $alg $card: $out"
            TOTAL_PASS=$((TOTAL_PASS + 1))
            ROWS+=("$verifier|$signer|$alg|$card 1/1|-|ok")
          else
            echo "FAIL $verifier verifies $signer's $alg $card: $out"
            if id="$(is_known "$verifier" "$signer" "$alg" "$check")"; then verdict=ok; else
              verdict=FAIL; id=-; UNEXPECTED=$((UNEXPECTED + 1)); TOTAL_FAIL=$((TOTAL_FAIL + 1)); fi
            ROWS+=("$verifier|$signer|$alg|$card 0/1|$id|$verdict")
          fi
        done
      done
    done
  done
}

if [ "$MODE" = signing ] || [ "$MODE" = all ]; then
  signing_matrix
fi

if [ "$MODE" = self ] || [ "$MODE" = all ]; then
  for binding in jsonrpc rest grpc; do
    run_checks python-sdk python-sdk "$binding" "http://127.0.0.1:$PY_PORT" "${PY_CHECKS[@]}"
    run_checks node-sdk node-sdk "$binding" "http://127.0.0.1:$JS_PORT" "${JS_CHECKS[@]}"
    run_checks python-sdk node-sdk "$binding" "http://127.0.0.1:$JS_PORT" "${PY_CHECKS[@]}"
    run_checks node-sdk python-sdk "$binding" "http://127.0.0.1:$PY_PORT" "${JS_CHECKS[@]}"
  done
fi

if [ "$MODE" = rust ] || [ "$MODE" = all ]; then
  if [ -n "${A2A_REFERENCE_AGENT:-}" ]; then
    [ -x "$A2A_REFERENCE_AGENT" ] || { echo "A2A_REFERENCE_AGENT=$A2A_REFERENCE_AGENT is not executable"; exit 1; }
    RS_PORT="$(free_port)"
    # --keep-alive 1: the subscribe and push checks then run through SSE
    # keep-alive comments, which the SDK clients must skip.
    # A2A_REFERENCE_AGENT_ARGS: more flags for it, e.g. --draft-1-1 (a
    # draft-1-1 build serving 1.1 beside 1.0: the 1.0 SDKs must not see it).
    # shellcheck disable=SC2086
    start_agent a2a-core "$RS_PORT" "$A2A_REFERENCE_AGENT" --port "$RS_PORT" --bearer "$BEARER" \
      --push-allow 127.0.0.0/8 --keep-alive 1 --quiet ${A2A_REFERENCE_AGENT_ARGS:-} || exit 1
    RS_BINDINGS=(jsonrpc rest)
    if offers_grpc "$RS_PORT"; then
      RS_BINDINGS+=(grpc)
    else
      grpc_missing "SDK clients" a2a-core "the reference agent's card offers no GRPC interface"
    fi
    for binding in "${RS_BINDINGS[@]}"; do
      run_checks python-sdk a2a-core "$binding" "http://127.0.0.1:$RS_PORT" "${PY_CHECKS[@]}"
      run_checks node-sdk a2a-core "$binding" "http://127.0.0.1:$RS_PORT" "${JS_CHECKS[@]}"
    done
  else
    SKIPPED_DIRECTIONS+=("SDK clients -> a2a-core reference agent: A2A_REFERENCE_AGENT not set (or use --build-rust)")
  fi
  if [ -n "${A2A_CLIENT_CHECKS:-}" ]; then
    read -r -a RS_CHECKS <<<"$A2A_CLIENT_CHECKS"
    CLIENT_BINDINGS=(jsonrpc rest)
    # Can our client reach a gRPC interface at all? The card check over
    # grpc must pass: a usage error (exit 2, no --binding grpc) or a failed
    # discovery (a client without gRPC) leaves the pair out.
    timeout 60 "${RS_CHECKS[@]}" --url "http://127.0.0.1:$PY_PORT" --binding grpc --bearer "$BEARER" \
      --only card >"$OUT/checks-a2a-core-grpc-probe.log" 2>&1
    if grep -q '^PASS card$' "$OUT/checks-a2a-core-grpc-probe.log"; then
      CLIENT_BINDINGS+=(grpc)
    else
      grpc_missing a2a-core "SDK agents" "our client cannot reach a GRPC interface ($(grep -m1 -E '^(FAIL|a2a-)' "$OUT/checks-a2a-core-grpc-probe.log"))"
    fi
    for binding in "${CLIENT_BINDINGS[@]}"; do
      run_checks a2a-core python-sdk "$binding" "http://127.0.0.1:$PY_PORT" "${RS_CHECKS[@]}"
      run_checks a2a-core node-sdk "$binding" "http://127.0.0.1:$JS_PORT" "${RS_CHECKS[@]}"
    done
  else
    SKIPPED_DIRECTIONS+=("a2a-core client -> SDK agents: A2A_CLIENT_CHECKS not set (see interop/rust-client-checks; --build-rust builds it when the tree has branch examples)")
  fi
  if [ -n "${A2A_EXAMPLE_CLIENT:-}" ]; then
    for binding in jsonrpc rest; do
      for peer in python-sdk:$PY_PORT node-sdk:$JS_PORT; do
        name="${peer%%:*}"; port="${peer##*:}"
        log="$OUT/example-client-vs-$name-$binding.log"
        say "a2a-core example client -> $name agent over $binding"
        timeout 120 "$A2A_EXAMPLE_CLIENT" "http://127.0.0.1:$port" --binding "$binding" --bearer "$BEARER" >"$log" 2>&1
        rc=$?
        cat "$log"
        if [ "$rc" = 0 ]; then
          verdict=ok; result="conversation"; TOTAL_PASS=$((TOTAL_PASS + 1))
        else
          verdict=FAIL; result="exit $rc"; UNEXPECTED=$((UNEXPECTED + 1)); TOTAL_FAIL=$((TOTAL_FAIL + 1))
        fi
        ROWS+=("a2a-core-example|$name|$binding|$result|-|$verdict")
      done
    done
  fi
  if [ -n "${A2A_CONFORMANCE:-}" ]; then
    for peer in python-sdk:$PY_PORT node-sdk:$JS_PORT; do
      name="${peer%%:*}"; port="${peer##*:}"
      say "a2a-conformance -> $name agent"
      timeout 240 "$A2A_CONFORMANCE" --url "http://127.0.0.1:$port" --bearer "$BEARER" \
        --webhook 127.0.0.1:0 --quiet \
        >"$OUT/conformance-$name.log" 2>&1
      rc=$?
      grep -E ' fail$|^[0-9]+ (records|passed)' "$OUT/conformance-$name.log" | tail -40
      # A failed scenario against an SDK agent is a finding about that SDK
      # (FINDINGS.md), not a failure of this run; a runner that cannot run
      # (usage error, no summary) is.
      summary="$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$OUT/conformance-$name.log" | tail -1)"
      if [ -z "$summary" ] || [ "$rc" -gt 1 ]; then
        verdict=FAIL; UNEXPECTED=$((UNEXPECTED + 1)); TOTAL_FAIL=$((TOTAL_FAIL + 1))
      else
        verdict=ok
      fi
      musts="$(grep -E '^[0-9]+ records' "$OUT/conformance-$name.log" | sed -E 's/.*\(([0-9]+) at MUST level\).*/\1 MUST-level fails/' | tail -1)"
      ROWS+=("a2a-conformance|$name|both|${summary:-none}|${musts:-see log}|$verdict")
    done
  else
    SKIPPED_DIRECTIONS+=("a2a-conformance -> SDK agents: A2A_CONFORMANCE not set (the runner is on branch conformance)")
  fi
fi

# --- client conformance: the SDK clients under `a2a-conformance client` -----
# The runner plays the agent (a TestPeer with awkward-but-legal answers) and
# checks what each SDK client sends and reports, through the adapters
# interop/python/conformance_client.py and interop/node/conformance_client.mjs.
# A failed scenario is a finding about that SDK (FINDINGS.md), not a failure
# of this run; a runner that cannot run (usage error, no summary) is.
if { [ "$MODE" = rust ] || [ "$MODE" = all ]; } && [ -n "${A2A_CONFORMANCE:-}" ]; then
  for sdk in python-sdk node-sdk; do
    case "$sdk" in
      python-sdk) cmd=("$PY" "$HERE/python/conformance_client.py") ;;
      *) cmd=(node "$HERE/node/conformance_client.mjs") ;;
    esac
    say "a2a-conformance client -> $sdk client"
    timeout 300 "$A2A_CONFORMANCE" client --json "$OUT/client-conformance-$sdk.json" -- "${cmd[@]}" \
      >"$OUT/client-conformance-$sdk.log" 2>&1
    rc=$?
    grep -E 'FAIL$|^ +(expected|got):|^[0-9]+ (records|passed)' "$OUT/client-conformance-$sdk.log" | tail -40
    summary="$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$OUT/client-conformance-$sdk.log" | tail -1)"
    if [ -z "$summary" ] || [ "$rc" -gt 1 ]; then
      verdict=FAIL; UNEXPECTED=$((UNEXPECTED + 1)); TOTAL_FAIL=$((TOTAL_FAIL + 1))
    else
      verdict=ok
    fi
    musts="$(grep -E '^[0-9]+ records' "$OUT/client-conformance-$sdk.log" | sed -E 's/.*\(([0-9]+) at MUST level\).*/\1 MUST-level fails/' | tail -1)"
    ROWS+=("$sdk|a2a-conformance-client|both|${summary:-none}|${musts:-see log}|$verdict")
  done
fi

# --- A2A 0.3 (issue 17) -----------------------------------------------------
if [ "$MODE" = v0_3 ] || [ "$MODE" = all ]; then
  PY03_CHECKS=("$PY03" "$HERE/python03/client_checks.py")
  JS03_CHECKS=(node "$HERE/node03/client_checks.mjs")
  declare -A V03_PORT
  V03_PORT[python-sdk-0.3]="$(free_port)"
  start_agent python-sdk-0.3 "${V03_PORT[python-sdk-0.3]}" "$PY03" "$HERE/python03/agent.py" \
    --port "${V03_PORT[python-sdk-0.3]}" --bearer "$BEARER" || exit 1
  V03_PORT[node-sdk-0.3]="$(free_port)"
  start_agent node-sdk-0.3 "${V03_PORT[node-sdk-0.3]}" node "$HERE/node03/agent.mjs" \
    --port "${V03_PORT[node-sdk-0.3]}" --bearer "$BEARER" || exit 1
  # (d) the 1.0 SDK agents with their opt-in 0.3 layer
  V03_PORT[python-sdk-compat]="$(free_port)"
  start_agent python-sdk-compat "${V03_PORT[python-sdk-compat]}" "$PY" "$HERE/python/agent.py" \
    --port "${V03_PORT[python-sdk-compat]}" --bearer "$BEARER" --v0-3 || exit 1
  V03_PORT[node-sdk-compat]="$(free_port)"
  start_agent node-sdk-compat "${V03_PORT[node-sdk-compat]}" node "$HERE/node/agent.mjs" \
    --port "${V03_PORT[node-sdk-compat]}" --bearer "$BEARER" --v0-3 || exit 1
  for binding in jsonrpc rest; do
    for server in python-sdk-0.3 node-sdk-0.3 python-sdk-compat node-sdk-compat; do
      url="http://127.0.0.1:${V03_PORT[$server]}"
      run_checks python-sdk-0.3 "$server" "$binding" "$url" "${PY03_CHECKS[@]}"
      run_checks node-sdk-0.3 "$server" "$binding" "$url" "${JS03_CHECKS[@]}"
    done
  done
  # (b) the reference agent's 0.3 path
  if [ -n "${A2A_REFERENCE_AGENT:-}" ]; then
    [ -x "$A2A_REFERENCE_AGENT" ] || { echo "A2A_REFERENCE_AGENT=$A2A_REFERENCE_AGENT is not executable"; exit 1; }
    RS03_PORT="$(free_port)"
    start_agent a2a-core-0.3 "$RS03_PORT" "$A2A_REFERENCE_AGENT" --port "$RS03_PORT" --bearer "$BEARER" \
      --push-allow 127.0.0.0/8 --keep-alive 1 --v0-3 --quiet || exit 1
    for binding in jsonrpc rest; do
      run_checks python-sdk-0.3 a2a-core-0.3 "$binding" "http://127.0.0.1:$RS03_PORT" "${PY03_CHECKS[@]}"
      run_checks node-sdk-0.3 a2a-core-0.3 "$binding" "http://127.0.0.1:$RS03_PORT" "${JS03_CHECKS[@]}"
    done
  else
    SKIPPED_DIRECTIONS+=("0.3 SDK clients -> a2a-core --v0-3: A2A_REFERENCE_AGENT not set (or use --build-rust)")
  fi
  # (c) our client against the 0.3 SDK agents: it reads their 0.3 cards
  # and falls back to 0.3 (discovery's default preferences)
  if [ -n "${A2A_CLIENT_CHECKS:-}" ]; then
    read -r -a RS_CHECKS <<<"$A2A_CLIENT_CHECKS"
    for binding in jsonrpc rest; do
      for server in python-sdk-0.3 node-sdk-0.3; do
        run_checks a2a-core "$server" "$binding" "http://127.0.0.1:${V03_PORT[$server]}" "${RS_CHECKS[@]}"
      done
    done
  else
    SKIPPED_DIRECTIONS+=("a2a-core client -> 0.3 SDK agents: A2A_CLIENT_CHECKS not set")
  fi
fi

# --- summary ----------------------------------------------------------------
version_of() {
  case "$1" in
    python-sdk) echo "a2a-sdk $PY_SDK (A2A 1.0)" ;;
    node-sdk) echo "@a2a-js/sdk $JS_SDK (A2A 1.0)" ;;
    a2a-core) echo "a2a-core $(cd "$ROOT" && git rev-parse --short HEAD 2>/dev/null || echo tree) (A2A 1.0, 0.3)" ;;
    a2a-core-example) echo "a2a-examples client (A2A 1.0)" ;;
    a2a-conformance) echo "a2a-conformance runner" ;;
    a2a-conformance-client) echo "a2a-conformance client suite" ;;
    python-sdk-0.3) echo "a2a-sdk $PY03_SDK (A2A 0.3)" ;;
    node-sdk-0.3) echo "@a2a-js/sdk $JS03_SDK (A2A 0.3)" ;;
    python-sdk-compat) echo "a2a-sdk $PY_SDK, 0.3 compat layer" ;;
    node-sdk-compat) echo "@a2a-js/sdk $JS_SDK, legacyCompat" ;;
    a2a-core-0.3) echo "a2a-core $(cd "$ROOT" && git rev-parse --short HEAD 2>/dev/null || echo tree) --v0-3" ;;
    *) echo "$1" ;;
  esac
}
echo
say "summary (logs in $OUT)"
printf '| %-12s | %-28s | %-12s | %-28s | %-8s | %-7s | %-44s | %-4s |\n' \
  client "client version" server "server version" binding passed "known SDK deviations (FINDINGS.md)" run
printf '|%s|%s|%s|%s|%s|%s|%s|%s|\n' -------------- ------------------------------ -------------- \
  ------------------------------ ---------- --------- ---------------------------------------------- ------
for row in "${ROWS[@]}"; do
  IFS='|' read -r c s b p k v <<<"$row"
  printf '| %-12s | %-28s | %-12s | %-28s | %-8s | %-7s | %-44s | %-4s |\n' \
    "$c" "$(version_of "$c")" "$s" "$(version_of "$s")" "$b" "$p" "$k" "$v"
done
for s in "${SKIPPED_DIRECTIONS[@]}"; do echo "skipped: $s"; done
for s in "${NOTES[@]}"; do echo "note: $s"; done
echo
echo "interop: $TOTAL_PASS passed, $TOTAL_FAIL failed"
[ "$UNEXPECTED" -eq 0 ]

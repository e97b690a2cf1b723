"""Signs and verifies agent card files with the official Python SDK
(a2a.utils.signing: create_agent_card_signer, create_signature_verifier):
the Python side of the signing interop matrix (interop/run.sh --mode
signing). Same interface as the a2a-signing card_tool example:

    signing.py sign   --key PRIVATE.jwk.json --card CARD.json    (signed card on stdout)
    signing.py verify --key PUBLIC.jwk.json  --card SIGNED.json  (exit 0 when it verifies)
"""

import argparse
import json
import sys

from google.protobuf.json_format import MessageToDict, ParseDict
from jwt.api_jwk import PyJWK

from a2a.types import AgentCard
from a2a.utils.signing import create_agent_card_signer, create_signature_verifier


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument('command', choices=['sign', 'verify'])
    parser.add_argument('--key', required=True)
    parser.add_argument('--card', required=True)
    args = parser.parse_args()
    with open(args.key) as f:
        jwk = json.load(f)
    with open(args.card) as f:
        card = ParseDict(json.load(f), AgentCard(), ignore_unknown_fields=True)
    alg = jwk['alg']
    if args.command == 'sign':
        signer = create_agent_card_signer(
            signing_key=PyJWK(jwk, algorithm=alg),
            protected_header={'alg': alg, 'typ': 'JOSE', 'kid': jwk['kid']},
        )
        print(json.dumps(MessageToDict(signer(card)), ensure_ascii=False))
        return 0
    public = {k: v for k, v in jwk.items() if k not in ('d', 'p', 'q', 'dp', 'dq', 'qi')}
    verifier = create_signature_verifier(
        lambda kid, jku: PyJWK(public, algorithm=alg), [alg]
    )
    try:
        verifier(card)
    except Exception as e:  # the SDK's SignatureVerificationError and friends
        print(f'not verified: {type(e).__name__}: {e}', file=sys.stderr)
        return 1
    print(f'{alg} kid={jwk["kid"]} valid')
    return 0


if __name__ == '__main__':
    sys.exit(main())

// Signs and verifies agent card files with the official JavaScript SDK
// (generateAgentCardSignature, the AgentCardSignatureGenerator, and
// verifyAgentCardSignature): the JavaScript side of the signing interop
// matrix (interop/run.sh --mode signing). Same interface as the a2a-signing
// card_tool example:
//
//   node signing.mjs sign   --key PRIVATE.jwk.json --card CARD.json    (signed card on stdout)
//   node signing.mjs verify --key PUBLIC.jwk.json  --card SIGNED.json  (exit 0 when it verifies)
import fs from 'node:fs';
import { generateAgentCardSignature, verifyAgentCardSignature } from '@a2a-js/sdk';

const [command, ...rest] = process.argv.slice(2);
const opts = {};
for (let i = 0; i < rest.length; i += 2) opts[rest[i].replace(/^--/, '')] = rest[i + 1];
const jwk = JSON.parse(fs.readFileSync(opts.key, 'utf8'));
const card = JSON.parse(fs.readFileSync(opts.card, 'utf8'));
const { d, p, q, dp, dq, qi, ...publicJwk } = jwk;

if (command === 'sign') {
  const signer = generateAgentCardSignature(jwk, { alg: jwk.alg, typ: 'JOSE', kid: jwk.kid });
  console.log(JSON.stringify(await signer(card)));
} else if (command === 'verify') {
  const verifier = verifyAgentCardSignature(async () => publicJwk);
  const quiet = console.debug;
  console.debug = () => {};
  try {
    await verifier(card);
    console.log(`${jwk.alg} kid=${jwk.kid} valid`);
  } catch (e) {
    console.error(`not verified: ${e.message}`);
    process.exitCode = 1;
  } finally {
    console.debug = quiet;
  }
} else {
  console.error('usage: signing.mjs sign|verify --key FILE --card FILE');
  process.exitCode = 2;
}

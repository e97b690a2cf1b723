// The ECMAScript oracle the expected outputs were written with:
// `node oracle.mjs` rewrites output/*.json from input/*.json and checks
// numbers-appendix-b.txt against the engine's own Number::toString.
// RFC 8785 is defined by ECMAScript's JSON.stringify and sort order, so
// an engine is the reference; the Rust implementation is tested against
// these files by tests/jcs_vectors.rs.
import fs from 'node:fs';
const here = new URL('.', import.meta.url).pathname;
const jcs = (v) => {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return '[' + v.map(jcs).join(',') + ']';
  return '{' + Object.keys(v).sort().map((k) => JSON.stringify(k) + ':' + jcs(v[k])).join(',') + '}';
};
for (const f of fs.readdirSync(here + 'input').sort()) {
  const out = jcs(JSON.parse(fs.readFileSync(here + 'input/' + f, 'utf8')));
  fs.writeFileSync(here + 'output/' + f, out);
}
let bad = 0;
for (const line of fs.readFileSync(here + 'numbers-appendix-b.txt', 'utf8').split('\n')) {
  if (!line || line.startsWith('#')) continue;
  const [hex, want] = line.split(' ');
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt('0x' + hex));
  const x = view.getFloat64(0);
  const got = Number.isFinite(x) ? String(x) : 'error';
  if (got !== want) { bad++; console.log(`${hex}: engine ${got}, file ${want}`); }
}
console.log(bad ? `${bad} mismatches` : 'numbers agree');

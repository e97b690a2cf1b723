// Drives the runner's --html page in headless Chromium (Debian's
// `chromium`, through playwright-core's DevTools protocol client) and
// checks what a person would: the counts render, the status and binding
// filters hide the other rows when clicked, failures show expected and
// actual, and the page loads nothing from the network. Writes a
// screenshot of the failures. tests/html.rs runs it:
//
//   node check.mjs <page.html> <expected.json> <screenshot.png>
//
// expected.json: {"records", "passed", "failed", "skipped", "byBinding":
// {"JSONRPC": n, ...}}. Prints one JSON line {"ok", "failures"}; exits 1
// when a check fails.

import { chromium } from "playwright-core";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [pagePath, expectedPath, screenshot] = process.argv.slice(2);
if (!screenshot) {
  console.error("usage: node check.mjs <page.html> <expected.json> <screenshot.png>");
  process.exit(2);
}
const expected = JSON.parse(readFileSync(expectedPath, "utf8"));
const failures = [];
const check = (ok, what) => {
  if (!ok) failures.push(what);
};

const profile = mkdtempSync(join(tmpdir(), "a2a-html-profile-"));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  headless: true,
  viewport: { width: 1280, height: 900 },
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});
try {
  const page = await context.newPage();
  const external = [];
  page.on("request", (r) => {
    if (!r.url().startsWith("file:")) external.push(r.url());
  });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(pathToFileURL(resolve(pagePath)).href);

  const text = async (selector) => ((await page.textContent(selector)) || "").trim();
  for (const [id, key] of [
    ["#count-total", "records"],
    ["#count-passed", "passed"],
    ["#count-failed", "failed"],
    ["#count-skipped", "skipped"],
  ]) {
    const got = await text(id);
    check(got === String(expected[key]), `${id} shows ${got}, expected ${expected[key]}`);
  }
  // Rows the user can see: not hidden themselves nor inside a hidden section.
  const visible = () =>
    page.$$eval("tr.result", (rows) =>
      rows
        .filter((r) => r.getClientRects().length > 0)
        .map((r) => ({ status: r.dataset.status, binding: r.dataset.binding })),
    );
  let rows = await visible();
  check(rows.length === expected.records, `${rows.length} rows visible at first, expected ${expected.records}`);

  for (const status of ["fail", "skip", "pass"]) {
    await page.click(`button[data-filter-status="${status}"]`);
    rows = await visible();
    const want = expected[{ fail: "failed", skip: "skipped", pass: "passed" }[status]];
    check(rows.length === want, `status ${status}: ${rows.length} rows visible, expected ${want}`);
    check(rows.every((r) => r.status === status), `status ${status}: other rows still visible`);
    const pressed = await page.getAttribute(`button[data-filter-status="${status}"]`, "aria-pressed");
    check(pressed === "true", `status ${status}: button not pressed`);
  }
  await page.click('button[data-filter-status="fail"]');
  if (expected.failed > 0) {
    const failure = page.locator('tr.result[data-status="fail"]').first();
    check(await failure.locator(".expected").isVisible(), "a failure shows no expected value");
    check(await failure.locator(".actual").isVisible(), "a failure shows no actual value");
  }
  await page.click('button[data-filter-status="all"]');

  for (const [binding, want] of Object.entries(expected.byBinding)) {
    await page.click(`button[data-filter-binding="${binding}"]`);
    rows = await visible();
    check(rows.length === want, `binding ${binding}: ${rows.length} rows visible, expected ${want}`);
    check(rows.every((r) => r.binding === binding), `binding ${binding}: other rows still visible`);
  }
  // Both filters at once.
  const [first] = Object.keys(expected.byBinding);
  await page.click(`button[data-filter-binding="${first}"]`);
  await page.click('button[data-filter-status="pass"]');
  rows = await visible();
  check(
    rows.every((r) => r.binding === first && r.status === "pass"),
    "status and binding filters do not combine",
  );
  const shown = await text("#shown");
  check(shown === `${rows.length} shown`, `#shown says ${shown}, ${rows.length} rows visible`);

  // The section index links each section.
  const chip = page.locator("nav.index a.chip").first();
  const target = (await chip.getAttribute("href")) || "";
  await chip.click();
  check(
    (await page.evaluate(() => location.hash)) === target,
    `clicking the index chip ${target} does not go to its section`,
  );
  check((await page.locator(`section${target.replace(/\./g, "\\.")}`).count()) === 1, `no section ${target}`);

  // The screenshot shows the failures, each with expected and actual.
  await page.click('button[data-filter-binding="all"]');
  await page.click(`button[data-filter-status="${expected.failed > 0 ? "fail" : "all"}"]`);
  await page.screenshot({ path: screenshot });
  await page.click('button[data-filter-status="all"]');
  rows = await visible();
  check(rows.length === expected.records, "resetting the filters does not show every row");

  check(external.length === 0, `the page requested ${external.join(", ")}`);
  check(errors.length === 0, `script errors: ${errors.join("; ")}`);
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
}
console.log(JSON.stringify({ ok: failures.length === 0, failures }));
process.exit(failures.length === 0 ? 0 : 1);

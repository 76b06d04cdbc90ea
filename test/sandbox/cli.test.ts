// `npm run sandbox`: the first line printed is exactly "Sandbox listening on <url>", the flags
// reach the sandbox, and bad flags are refused with the usage text.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { after, test } from "node:test";
import { commandArgs, tsxArgs } from "../helpers/commands.js";

const dataDir = mkdtempSync(join(tmpdir(), "sandbox-cli-"));
after(() => rmSync(dataDir, { recursive: true, force: true }));

test("first line is the address; flags reach the sandbox; SIGTERM stops it", async () => {
  const child = spawn(
    process.execPath,
    [
      ...commandArgs("src/sandbox/main.ts"),
      "--http",
      "--port",
      "0",
      "--companies",
      "150",
      "--contacts",
      "300",
      "--seed",
      "7",
      "--data-dir",
      dataDir,
      "--rate-per-second",
      "3",
      "--fail-rate",
      "0",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  try {
    const first = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once("line", resolve);
      child.once("exit", (code) => reject(new Error(`exited with ${code}`)));
    });
    const match = /^Sandbox listening on (http:\/\/localhost:\d+)$/.exec(first);
    assert.ok(match, `first line: ${first}`);
    const url = match[1]!;
    const stats = (await (await fetch(`${url}/__sandbox/stats`)).json()) as { companies: number; contacts: number };
    assert.deepEqual([stats.companies, stats.contacts], [150, 300]);
    const token = (
      (await (await fetch(`${url}/__sandbox/token`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).json()) as {
        access_token: string;
      }
    ).access_token;
    const res = await fetch(`${url}/data/v1/lookup/countries`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(res.headers.get("x-ratelimit-limit-second"), "3");
  } finally {
    child.kill("SIGTERM");
    assert.equal(await exited, 0);
  }
});

test("an unknown flag or a bad value is refused with the usage text", () => {
  // As `npm run sandbox` starts it: through tsx.
  const unknown = spawnSync(process.execPath, [...tsxArgs("src/sandbox/main.ts"), "--colour"], { encoding: "utf8" });
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /Usage: npm run sandbox/);
  const bad = spawnSync(process.execPath, [...commandArgs("src/sandbox/main.ts"), "--fail-rate", "3"], { encoding: "utf8" });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--fail-rate must be a number from 0 to 1/);
});

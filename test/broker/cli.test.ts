import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { after, describe, it } from "node:test";
import { commandArgs, tsxArgs } from "../helpers/commands.js";

const ORIGIN = "https://localhost:3000";

const folders: string[] = [];
after(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function secretFile(mode: number): string {
  const folder = mkdtempSync(join(tmpdir(), "broker-cli-"));
  folders.push(folder);
  const file = join(folder, "secret");
  writeFileSync(file, "file-secret-value\n", { mode });
  return file;
}

function spawnBroker(args: string[], env: NodeJS.ProcessEnv = process.env): { child: ChildProcess; stderr: () => string } {
  const child = spawn(
    process.execPath,
    [
      ...commandArgs("src/broker/main.ts"),
      "--http",
      "--port",
      "0",
      "--host",
      "127.0.0.1",
      "--upstream",
      "http://127.0.0.1:9/token",
      "--client-id",
      "c",
      "--allow-origin",
      ORIGIN,
      ...args,
    ],
    { stdio: ["ignore", "pipe", "pipe"], env },
  );
  let stderr = "";
  child.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
  return { child, stderr: () => stderr };
}

/** The address from the broker's first line, or a rejection with its error output when it exits first. */
function listening(child: ChildProcess, stderr: () => string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", (first) => {
      const match = /^Broker listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(first);
      if (match) resolve(match[1]!);
      else reject(new Error(`unexpected first line: ${first}`));
    });
    child.once("exit", (code) => reject(new Error(`exited with ${code}: ${stderr()}`)));
  });
}

const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => child.once("exit", resolve));

/** The exit code of a broker that must refuse to start; one that starts instead is stopped and reported. */
async function refusal(child: ChildProcess, stderr: () => string): Promise<number | null> {
  const outcome = await Promise.race([
    exited(child).then((code) => ({ code })),
    listening(child, stderr).then(
      (url) => ({ url }),
      () => ({ code: child.exitCode }),
    ),
  ]);
  if ("url" in outcome) {
    child.kill("SIGTERM");
    assert.fail(`the broker started on ${outcome.url} instead of refusing`);
  }
  return outcome.code;
}

describe("npm run broker", () => {
  it("prints its address first and answers /health; the secret comes from a file only its owner reads", async () => {
    const { child, stderr } = spawnBroker(["--client-secret-file", secretFile(0o600)]);
    try {
      const url = await listening(child, stderr);
      const health = await fetch(`${url}/health`);
      assert.equal(health.status, 200);
    } finally {
      child.kill("SIGTERM");
    }
  });

  it("refuses to start without HTTPS material unless --http is given", async () => {
    const child = spawn(
      process.execPath,
      // As `npm run broker` starts it: through tsx.
      [...tsxArgs("src/broker/main.ts"), "--upstream", "http://127.0.0.1:9/token", "--client-id", "c", "--allow-origin", "https://a.example"],
      {
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, BROKER_CLIENT_SECRET: "x" },
      },
    );
    let stderr = "";
    child.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
    const code = await exited(child);
    assert.equal(code, 2);
    assert.match(stderr, /--tls-key/);
  });

  it("refuses a Redis URL with a database that is not a number before it listens, without repeating its password", async () => {
    const { child, stderr } = spawnBroker(
      ["--relay", "http://127.0.0.1:9/gtm", "--relay-rate", "25", "--relay-redis", "redis://:hunter2secret@127.0.0.1:6379/abc"],
      { ...process.env, BROKER_CLIENT_SECRET: "x" },
    );
    assert.equal(await refusal(child, stderr), 2);
    assert.match(stderr(), /--relay-redis names the database "abc", which is not a number/);
    assert.ok(!stderr().includes("hunter2secret"));
  });

  it(
    "refuses a secret file other users can read, naming the fix, unless told otherwise",
    { skip: process.platform === "win32" ? "file modes are a POSIX matter" : false },
    async () => {
      for (const mode of [0o640, 0o604]) {
        const file = secretFile(mode);
        const { child, stderr } = spawnBroker(["--client-secret-file", file]);
        assert.equal(await refusal(child, stderr), 2, `mode ${mode.toString(8)}`);
        assert.match(stderr(), /readable by other users/);
        assert.ok(stderr().includes(`chmod 600 ${file}`), stderr());
        assert.match(stderr(), /--allow-readable-secret-file/);
        assert.ok(!stderr().includes("file-secret-value"), "the secret is never printed");
      }
      const { child, stderr } = spawnBroker(["--client-secret-file", secretFile(0o644), "--allow-readable-secret-file"]);
      try {
        await listening(child, stderr);
      } finally {
        child.kill("SIGTERM");
      }
    },
  );

  it("--trust-proxy N trusts N hops from the right: forged X-Forwarded-For entries neither pass the limit nor reach the log", async () => {
    const { child, stderr } = spawnBroker(["--client-secret-file", secretFile(0o600), "--trust-proxy", "1", "--token-rate", "5"]);
    try {
      const url = await listening(child, stderr);
      const statuses: number[] = [];
      for (let i = 0; i < 8; i += 1) {
        const res = await fetch(`${url}/token`, {
          method: "POST",
          headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": `198.18.7.${i}, 203.0.113.9` },
          body: "grant_type=refresh_token&refresh_token=RT",
        });
        statuses.push(res.status);
      }
      // The upstream (port 9) is unreachable: 502 until the address's budget is spent.
      assert.deepEqual(statuses, [502, 502, 502, 502, 502, 429, 429, 429]);
    } finally {
      child.kill("SIGTERM");
      await exited(child);
    }
    assert.ok(stderr().includes('"remoteAddress":"203.0.113.9"'), "the log names the address the proxy saw");
    assert.ok(!stderr().includes("198.18.7."), "never a forged one");
  });

  it("--trust-proxy refuses a value that is neither a hop count nor addresses", async () => {
    const { child, stderr } = spawnBroker(["--client-secret-file", secretFile(0o600), "--trust-proxy", "yes please"]);
    assert.equal(await refusal(child, stderr), 2);
    assert.match(stderr(), /--trust-proxy/);
  });
});

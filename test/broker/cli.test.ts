import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { it } from "node:test";

it("npm run broker prints its address first and answers /health; the secret comes from a file", async () => {
  const dir = mkdtempSync(join(tmpdir(), "broker-cli-"));
  const secretFile = join(dir, "secret");
  writeFileSync(secretFile, "file-secret-value\n");
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "src/broker/main.ts", "--http", "--port", "0", "--host", "127.0.0.1", "--upstream", "http://127.0.0.1:9/token", "--client-id", "c", "--client-secret-file", secretFile, "--allow-origin", "https://localhost:3000"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  try {
    const first = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once("line", resolve);
      child.once("exit", (code) => reject(new Error(`exited with ${code}`)));
    });
    const match = /^Broker listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(first);
    assert.ok(match, first);
    const health = await fetch(`${match[1]}/health`);
    assert.equal(health.status, 200);
  } finally {
    child.kill("SIGTERM");
  }
});

it("npm run broker refuses to start without HTTPS material unless --http is given", async () => {
  const child = spawn(process.execPath, ["--import", "tsx", "src/broker/main.ts", "--upstream", "http://127.0.0.1:9/token", "--client-id", "c", "--allow-origin", "https://a.example"], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, BROKER_CLIENT_SECRET: "x" },
  });
  let stderr = "";
  child.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  assert.equal(code, 2);
  assert.match(stderr, /--tls-key/);
});

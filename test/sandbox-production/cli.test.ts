import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { it } from "node:test";
import { commandArgs } from "../helpers/commands.js";

it("npm run sandbox -- --profile production serves the production profile with the given client", async () => {
  const dir = mkdtempSync(join(tmpdir(), "sandbox-prod-cli-"));
  const child = spawn(
    process.execPath,
    [
      ...commandArgs("src/sandbox/main.ts"),
      "--http",
      "--port",
      "0",
      "--host",
      "127.0.0.1",
      "--companies",
      "50",
      "--contacts",
      "50",
      "--data-dir",
      dir,
      "--profile",
      "production",
      "--client-id",
      "cli-client",
      "--client-secret",
      "cli-secret",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  try {
    const lines = createInterface({ input: child.stdout! });
    const seen: string[] = [];
    const url = await new Promise<string>((resolve, reject) => {
      lines.on("line", (line) => {
        seen.push(line);
        const match = /^Sandbox listening on (\S+)$/.exec(seen[0] ?? "");
        if (match && seen.some((l) => l.includes("production profile"))) resolve(match[1]!);
      });
      child.once("exit", (code) => reject(new Error(`exited with ${code}: ${seen.join("\n")}`)));
    });
    const noCredentials = await fetch(`${url}/gtm/oauth/v1/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=refresh_token&refresh_token=x",
    });
    assert.equal(noCredentials.status, 401);
    const wrongSecret = await fetch(`${url}/gtm/oauth/v1/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${Buffer.from("cli-client:not-it").toString("base64")}` },
      body: "grant_type=refresh_token&refresh_token=x",
    });
    assert.equal(wrongSecret.status, 401);
    const rightSecret = await fetch(`${url}/gtm/oauth/v1/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${Buffer.from("cli-client:cli-secret").toString("base64")}` },
      body: "grant_type=refresh_token&refresh_token=x",
    });
    assert.equal(rightSecret.status, 400, "the client is known; the refresh token is not");
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
    rmSync(dir, { recursive: true, force: true });
  }
});

it("npm run sandbox refuses an unknown profile", async () => {
  const child = spawn(process.execPath, [...commandArgs("src/sandbox/main.ts"), "--profile", "staging"], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  assert.equal(code, 2);
  assert.match(stderr, /--profile must be "production" or "default"/);
});

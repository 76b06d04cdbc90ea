// The signing keys of in-memory sandboxes: made for each start, or taken in turn from the run's
// pool of ready-made keys (SANDBOX_KEY_POOL), always under a kid of their own.
import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { KEY_POOL_ENV, loadSigningKeys } from "../../src/sandbox/keys.js";

const dir = mkdtempSync(join(tmpdir(), "key-pool-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The pool this process uses: the run's, or two keys made here when the file runs on its own. */
function poolModuli(): string[] {
  if (!process.env[KEY_POOL_ENV]) {
    const file = join(dir, "pool.json");
    const keys = [0, 1].map(() => generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" }));
    writeFileSync(file, JSON.stringify(keys));
    process.env[KEY_POOL_ENV] = file;
  }
  return (JSON.parse(readFileSync(process.env[KEY_POOL_ENV]!, "utf8")) as { n: string }[]).map((key) => key.n);
}

describe("sandbox signing keys", () => {
  it("takes in-memory sandboxes' keys from the pool in turn, each under a new kid, and publishes only the public part", async () => {
    const moduli = poolModuli();
    const first = await loadSigningKeys(undefined);
    const second = await loadSigningKeys(undefined);
    assert.ok(moduli.includes(first.privateJwk.n!) && moduli.includes(second.privateJwk.n!), "both keys are the pool's");
    assert.notEqual(first.privateJwk.n, second.privateJwk.n, "consecutive starts sign with different keys");
    assert.notEqual(first.privateJwk.kid, second.privateJwk.kid);
    assert.deepEqual(Object.keys(first.publicJwks.keys[0]!).sort(), ["alg", "e", "kid", "kty", "n", "use"]);
    assert.equal(first.publicJwks.keys[0]!.kid, first.privateJwk.kid);
  });

  it("makes and keeps a key of its own for a sandbox with a data folder, whatever the pool", async () => {
    const moduli = poolModuli();
    const dataDir = join(dir, "data");
    const made = await loadSigningKeys(dataDir);
    assert.ok(!moduli.includes(made.privateJwk.n!), "not a pooled key");
    assert.deepEqual((await loadSigningKeys(dataDir)).privateJwk, made.privateJwk, "read back on the next start");
  });
});

// With the service's key set, a correctly signed token proves itself only with the service's
// issuer and this app's audience, an expiry, an issue time not in the future (beyond a minute of
// clock difference) and a lifetime of at most a day; every other token is refused by the relay
// before anything is sent, and takes no slot.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { FakeClock } from "../core/api/scripted.js";
import { ADDIN, brokerFor } from "./helpers.js";
import { fakeService, runSchedule } from "./service.js";
import { startKeySet, type KeySet } from "./tokens.js";
import type { FakeUpstream } from "./upstream.js";

const NOWHERE = { url: "http://127.0.0.1:9" } as FakeUpstream;
const NOW_S = 100 * 24 * 3600;
const HOUR = 3600;

/** The status of one usage request sent with `token` at the clock's present. */
async function usageStatus(clock: FakeClock, app: Awaited<ReturnType<typeof brokerFor>>, token: string): Promise<number | undefined> {
  const [answer] = await runSchedule(clock, [
    {
      at: 0,
      label: "x",
      send: () => app.inject({ method: "GET", url: "/data/v1/users/usage", headers: { origin: ADDIN, authorization: `Bearer ${token}` } }),
    },
  ]);
  return answer!.status;
}

describe("relay trust with the service's key set: the claims of a signed token", () => {
  let keys: KeySet;
  before(async () => {
    keys = await startKeySet();
  });
  after(() => keys.close());

  it("refuses a signed token with the wrong audience or issuer, no exp, a 25 h life, or an iat 30 days ahead; paces a good one", async () => {
    const clock = new FakeClock(NOW_S * 1000);
    const service = fakeService(clock);
    const released: number[] = [];
    const app = await brokerFor(
      NOWHERE,
      { pacing: { perSecond: 5, jwksUrl: keys.url } },
      { clock, fetch: service.fetch, jwksCooldownMs: 0, onPacingEvent: (e) => e === "released" && released.push(clock.now()) },
    );
    const send = (token: string) => usageStatus(clock, app, token);
    const base = { account: "acme", sub: "mallory", iat: NOW_S - 60, exp: NOW_S + HOUR };
    try {
      const cases: [string, Record<string, unknown>][] = [
        ["another app's audience", { ...base, aud: "another-app" }],
        ["another issuer", { ...base, iss: "https://elsewhere.example/" }],
        ["no exp", { ...base, exp: undefined }],
        ["no iat", { ...base, iat: undefined }],
        ["a 25 h life", { ...base, iat: NOW_S - 60, exp: NOW_S - 60 + 25 * HOUR }],
        ["an iat 30 days ahead", { ...base, iat: NOW_S + 30 * 24 * HOUR, exp: NOW_S + 30 * 24 * HOUR + HOUR }],
      ];
      for (const [what, claims] of cases) assert.equal(await send(await keys.sign(claims)), 401, what);
      assert.equal(service.calls.length, 0, "none of them reached the service");
      assert.equal(released.length, 0, "nor took a slot");
      assert.equal(await send(await keys.sign({ ...base, sub: "carol" })), 200, "a token as the service writes them");
      assert.equal(await send(await keys.sign({ ...base, sub: "dave", iat: NOW_S + 30 })), 200, "an iat within the clock tolerance");
      assert.equal(released.length, 2, "paced from their first request");
    } finally {
      await app.close();
    }
  });

  it("refuses a token naming a key the set does not hold after fetching the set once more", async () => {
    const clock = new FakeClock(NOW_S * 1000);
    const service = fakeService(clock);
    const app = await brokerFor(NOWHERE, { pacing: { perSecond: 5, jwksUrl: keys.url } }, { clock, fetch: service.fetch, jwksCooldownMs: 0 });
    const send = (token: string) => usageStatus(clock, app, token);
    try {
      assert.equal(await send(await keys.sign({ account: "acme", sub: "carol", exp: NOW_S + HOUR })), 200, "the key set read and kept");
      const before = keys.fetches;
      const token = await keys.sign({ account: "acme", sub: "mallory", exp: NOW_S + HOUR }, { key: "unpublished", kid: "not-published" });
      assert.equal(await send(token), 401);
      assert.equal(keys.fetches - before, 1, "fetched once more for the unknown key");
      assert.equal(service.calls.length, 1, "only the good token's request reached the service");
    } finally {
      await app.close();
    }
  });

  it("refuses a correctly signed token for good once the service answered it 401 (revoked)", async () => {
    const clock = new FakeClock(NOW_S * 1000);
    let revoked = "";
    const service = fakeService(clock, (call) => (call.authorization === `Bearer ${revoked}` ? new Response("{}", { status: 401 }) : undefined));
    const app = await brokerFor(NOWHERE, { pacing: { perSecond: 5, jwksUrl: keys.url } }, { clock, fetch: service.fetch, jwksCooldownMs: 0 });
    const send = async () =>
      (
        await runSchedule(clock, [
          {
            at: 0,
            label: "x",
            send: () => app.inject({ method: "GET", url: "/data/v1/users/usage", headers: { origin: ADDIN, authorization: `Bearer ${revoked}` } }),
          },
        ])
      )[0]!.status;
    try {
      revoked = await keys.sign({ account: "acme", sub: "erin", exp: NOW_S + HOUR });
      assert.equal(await send(), 401, "the service's 401 passed on");
      const calls = service.calls.length;
      assert.equal(await send(), 401, "then the relay's own");
      assert.equal(service.calls.length, calls, "without asking the service again, though the signature still verifies");
    } finally {
      await app.close();
    }
  });

  it("needs the service's issuer and audience to start with a key set", async () => {
    await assert.rejects(brokerFor(NOWHERE, { pacing: { perSecond: 5, jwksUrl: keys.url, jwksIssuer: "" } }), /--relay-issuer/);
    await assert.rejects(brokerFor(NOWHERE, { pacing: { perSecond: 5, jwksUrl: keys.url, jwksAudience: "" } }), /--relay-audience/);
  });
});

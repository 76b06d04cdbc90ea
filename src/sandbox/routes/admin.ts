// Sandbox-only routes for development and tests: dev tokens, accounts, stats, faults and a
// manual clock.
// They need no token and are not rate limited; devEndpointGuard (devGuard.ts) keeps browsers on
// other origins away from them.
import { Type, type Static } from "@sinclair/typebox";
import type { FastifyInstance } from "fastify";
import { validateAgainst } from "../../core/contract/index.js";
import { MAX_ACCESS_TOKEN_LIFETIME_SECONDS, mintDevToken } from "../auth.js";
import type { ManualClock } from "../clock.js";
import { LEDGER_PAGE_SIZE, MAX_LEDGER_PAGE_SIZE } from "../credits.js";
import { DEFAULT_AI_CREDITS } from "../research/aiCredits.js";
import type { RouteDependencies } from "../routeDependencies.js";
import { checkedBy, stringQuery } from "./validation.js";

const text = Type.String({ minLength: 1, maxLength: 200 });

/** POST /__sandbox/token: every field optional (all data scopes, every role, account "default", 1 hour). */
const DevTokenBody = Type.Object(
  {
    scopes: Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 50 })),
    roles: Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 50 })),
    account: Type.Optional(text),
    subject: Type.Optional(text),
    expiresIn: Type.Optional(Type.Integer({ minimum: -31_536_000, maximum: MAX_ACCESS_TOKEN_LIFETIME_SECONDS })),
  },
  { additionalProperties: false },
);

/** POST /__sandbox/accounts: create or reset an account with a credit balance (and an AI action credit limit, default 250). */
const AccountBody = Type.Object(
  {
    id: text,
    credits: Type.Integer({ minimum: 0, maximum: 1_000_000_000 }),
    aiCredits: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000 })),
  },
  { additionalProperties: false },
);

/** POST /__sandbox/faults: change some fault settings at run time. */
const FaultsBody = Type.Object(
  {
    latencyMs: Type.Optional(Type.Number({ minimum: 0, maximum: 60_000 })),
    failRate: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    resetRate: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    gatewayErrors: Type.Optional(Type.Boolean()),
    seed: Type.Optional(Type.Number({ minimum: 0 })),
  },
  { additionalProperties: false },
);

/** GET /__sandbox/accounts/:id pages its ledger (oldest first). */
const LedgerPage = Type.Object({
  "page[number]": Type.Optional(Type.Integer({ minimum: 1 })),
  "page[size]": Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LEDGER_PAGE_SIZE })),
});
const LedgerQuery = checkedBy(Type.Object(LedgerPage.properties), (raw) => {
  // Query values arrive as text; whole numbers are read as numbers, anything else is checked as given.
  const value = Object.fromEntries(Object.entries(stringQuery(raw)).map(([k, v]) => [k, v !== undefined && /^\d+$/.test(v) ? Number(v) : v]));
  return { issues: validateAgainst(LedgerPage, value), value };
});

/** POST /__sandbox/clock: move a manual clock forward (--manual-clock). */
const ClockBody = Type.Object({ advanceMs: Type.Integer({ minimum: 0, maximum: 31_536_000_000 }) }, { additionalProperties: false });

/** An empty object: the body of POSTs that take no input (a JSON body keeps them out of reach of plain forms). */
const NoInput = Type.Object({}, { additionalProperties: false });

export async function adminRoutes(app: FastifyInstance, d: RouteDependencies): Promise<void> {
  app.post<{ Body: Static<typeof DevTokenBody> }>("/__sandbox/token", { schema: { body: DevTokenBody } }, async (request) => {
    const { token, expiresIn } = await mintDevToken(d.ctx.keys, d.ctx.options.publicUrl, d.ctx.apiAudience, request.body, d.ctx.clock);
    return { access_token: token, token_type: "Bearer", expires_in: expiresIn };
  });

  app.post<{ Body: Static<typeof AccountBody> }>("/__sandbox/accounts", { schema: { body: AccountBody } }, async (request) => {
    d.accounts.resetAccount(request.body.id, request.body.credits);
    d.aiCredits.reset(request.body.id, request.body.aiCredits ?? DEFAULT_AI_CREDITS);
    return { ...d.accounts.summary(request.body.id), aiCredits: d.aiCredits.balance(request.body.id) };
  });

  app.get<{ Params: { id: string }; Querystring: Static<typeof LedgerQuery> }>(
    "/__sandbox/accounts/:id",
    { schema: { querystring: LedgerQuery } },
    async (request) =>
      d.accounts.summary(request.params.id, { number: request.query["page[number]"] ?? 1, size: request.query["page[size]"] ?? LEDGER_PAGE_SIZE }),
  );

  app.get("/__sandbox/stats", async () => ({
    requests: Object.fromEntries(d.ctx.stats.requests),
    total: [...d.ctx.stats.requests.values()].reduce((a, b) => a + b, 0),
    companies: d.records.companyCount(),
    contacts: d.records.contactCount(),
    seededInMs: d.seededInMs,
    pageCache: d.searcher.pageCache(),
  }));

  app.post("/__sandbox/stats/reset", { schema: { body: NoInput } }, async () => {
    d.ctx.stats.reset();
    return { ok: true };
  });

  app.get("/__sandbox/faults", async () => d.ctx.faults);
  app.post<{ Body: Static<typeof FaultsBody> }>("/__sandbox/faults", { schema: { body: FaultsBody } }, async (request) => d.faultPlan.update(request.body));

  // Time moves (jobs step, windows pass) as far as asked, and the answer comes once it has.
  app.post<{ Body: Static<typeof ClockBody> }>("/__sandbox/clock", { schema: { body: ClockBody } }, async (request, reply) => {
    const clock = d.ctx.clock as Partial<ManualClock>;
    if (typeof clock.advance !== "function") {
      return reply.code(409).send({ error: "The sandbox runs on the system clock: start it with --manual-clock to move time by hand." });
    }
    await clock.advance(request.body.advanceMs);
    return { now: new Date(d.ctx.clock.now()).toISOString() };
  });

  app.post("/__sandbox/rate-limits/reset", { schema: { body: NoInput } }, async () => {
    d.limiter.reset();
    return { ok: true };
  });
}

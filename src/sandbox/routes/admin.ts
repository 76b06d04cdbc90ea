// Sandbox-only routes for development and tests: dev tokens, accounts, stats and faults.
// They need no token and are not rate limited.
import type { FastifyInstance } from "fastify";
import { ERROR_CODES } from "../../core/contract/index.js";
import { mintDevToken, type DevTokenRequest } from "../auth.js";
import { ApiError } from "../errors.js";
import { isFaultOptionsPatch } from "../faults.js";
import type { SandboxServices } from "../services.js";

const bad = (detail: string, pointer: string) => new ApiError(400, ERROR_CODES.validation, detail, { pointer });

function parseTokenRequest(body: unknown): DevTokenRequest {
  if (body === undefined || body === null) return {};
  if (typeof body !== "object" || Array.isArray(body)) throw bad("The body must be a JSON object.", "");
  const b = body as Record<string, unknown>;
  const known = new Set(["scopes", "roles", "account", "subject", "expiresIn"]);
  for (const key of Object.keys(b)) if (!known.has(key)) throw bad(`"${key}" is not a field this request accepts.`, `/${key}`);
  const strings = (key: "scopes" | "roles") => {
    const v = b[key];
    if (v === undefined) return undefined;
    if (!Array.isArray(v) || !v.every((x) => typeof x === "string")) throw bad(`${key} must be a list of text values.`, `/${key}`);
    return v as string[];
  };
  const text = (key: "account" | "subject") => {
    const v = b[key];
    if (v === undefined) return undefined;
    if (typeof v !== "string" || v.length === 0 || v.length > 200) throw bad(`${key} must be non-empty text.`, `/${key}`);
    return v;
  };
  const expiresIn = b.expiresIn;
  if (expiresIn !== undefined && (typeof expiresIn !== "number" || !Number.isInteger(expiresIn))) throw bad("expiresIn must be a whole number of seconds.", "/expiresIn");
  return { scopes: strings("scopes"), roles: strings("roles"), account: text("account"), subject: text("subject"), expiresIn: expiresIn as number | undefined };
}

export async function adminRoutes(app: FastifyInstance, s: SandboxServices): Promise<void> {
  app.post("/__sandbox/token", async (request) => {
    const req = parseTokenRequest(request.body);
    const { token, expiresIn } = await mintDevToken(s.ctx.keys, s.ctx.options.publicUrl, s.ctx.apiAudience, req);
    return { access_token: token, token_type: "Bearer", expires_in: expiresIn };
  });

  app.post("/__sandbox/accounts", async (request) => {
    const b = request.body as Record<string, unknown> | undefined;
    if (!b || typeof b !== "object" || typeof b.id !== "string" || b.id.length === 0) throw bad("id must be non-empty text.", "/id");
    if (typeof b.credits !== "number" || !Number.isInteger(b.credits) || b.credits < 0) throw bad("credits must be a whole number, 0 or more.", "/credits");
    s.accounts.resetAccount(b.id, b.credits);
    return s.accounts.summary(b.id);
  });

  app.get<{ Params: { id: string } }>("/__sandbox/accounts/:id", async (request) => s.accounts.summary(request.params.id));

  app.get("/__sandbox/stats", async () => ({
    requests: Object.fromEntries(s.ctx.stats.requests),
    total: [...s.ctx.stats.requests.values()].reduce((a, b) => a + b, 0),
    companies: s.records.companyCount(),
    contacts: s.records.contactCount(),
    seededInMs: s.seededInMs,
  }));

  app.post("/__sandbox/stats/reset", async () => {
    s.ctx.stats.reset();
    return { ok: true };
  });

  app.get("/__sandbox/faults", async () => s.ctx.faults);
  app.post("/__sandbox/faults", async (request) => {
    if (!isFaultOptionsPatch(request.body)) {
      throw bad("Send some of latencyMs, failRate (0..1), resetRate (0..1), gatewayErrors (true/false), seed.", "");
    }
    return s.faultPlan.update(request.body);
  });

  app.post("/__sandbox/rate-limits/reset", async () => {
    s.limiter.reset();
    return { ok: true };
  });
}

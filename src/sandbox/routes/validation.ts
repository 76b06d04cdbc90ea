// Route schemas are checked with the contract's validator, not Fastify's own: the client runs the
// same checks before sending, so both give one verdict; unknown fields answer 400 (nothing is
// stripped or coerced) and every issue carries the contract's pointer and message.
import type { TSchema } from "@sinclair/typebox";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { validateAgainst, type ValidationIssue } from "../../core/contract/index.js";
import { ValidationFailure } from "../errors.js";

/** A check of one request part: its issues, and the value the handler should see (if changed). */
export type PartCheck = (value: unknown) => { issues: ValidationIssue[]; value?: unknown };

const checks = new WeakMap<TSchema, PartCheck>();

/**
 * Gives a route schema a check of its own, for rules a schema cannot say (cross-field rules,
 * query parameters read as single strings). Returns the schema, to use inline in a route.
 */
export function checkedBy<S extends TSchema>(schema: S, check: PartCheck): S {
  checks.set(schema, check);
  return schema;
}

function checkOf(schema: TSchema): PartCheck {
  return checks.get(schema) ?? ((value) => ({ issues: validateAgainst(schema, value) }));
}

const PARTS = [
  ["params", "params"],
  ["querystring", "query"],
  ["body", "body"],
] as const;

export function useContractValidation(app: FastifyInstance): void {
  // Fastify stops at the first request part that fails; a person fixing a request wants every
  // issue at once, so a route with several checked parts has them all checked first.
  app.addHook("onRoute", (route) => {
    const schema = route.schema as Partial<Record<(typeof PARTS)[number][0], TSchema>> | undefined;
    const parts = PARTS.filter(([part]) => schema?.[part] !== undefined);
    if (!schema || parts.length < 2) return;
    const allParts = async (request: FastifyRequest) => {
      const issues = parts.flatMap(([part, field]) => checkOf(schema[part]!)(request[field]).issues);
      if (issues.length > 0) throw new ValidationFailure(issues);
    };
    const existing = route.preValidation;
    route.preValidation = existing === undefined ? allParts : [...(Array.isArray(existing) ? existing : [existing]), allParts];
  });
  app.setValidatorCompiler(({ schema }) => {
    const check = checkOf(schema as TSchema);
    return (data: unknown) => {
      const { issues, value } = check(data);
      if (issues.length > 0) return { error: new ValidationFailure(issues) };
      return { value: value ?? data };
    };
  });
  // Response schemas document the answers and type the handlers; answers are written as built.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
}

/** Query parameters as single strings (a repeated parameter counts by its first value). */
export function stringQuery(query: unknown): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  if (query && typeof query === "object") {
    for (const [k, v] of Object.entries(query as Record<string, unknown>)) {
      out[k] = Array.isArray(v) ? String(v[0]) : v === undefined ? undefined : String(v);
    }
  }
  return out;
}

/** A call's request parts, as a route's handler reads them. */
export interface CallParts {
  params: unknown;
  query: unknown;
  body: unknown;
}

/** The order Fastify checks a route's parts in (the first failing one answers). */
const FASTIFY_ORDER = [PARTS[0], PARTS[2], PARTS[1]] as const;

/**
 * The parts of a call checked against a route's schemas exactly as a request on the route is
 * (useContractValidation): every part's issues at once when several are checked, else the first
 * failing part's; an absent body is read as null. Returns the values the handler sees.
 */
export function checkedParts(schema: Partial<Record<"params" | "querystring" | "body", TSchema>> | undefined, parts: CallParts): CallParts {
  const present = PARTS.filter(([part]) => schema?.[part] !== undefined);
  if (present.length >= 2) {
    const issues = present.flatMap(([part, field]) => checkOf(schema![part]!)(parts[field]).issues);
    if (issues.length > 0) throw new ValidationFailure(issues);
  }
  const checked = { ...parts };
  for (const [part, field] of FASTIFY_ORDER) {
    if (schema?.[part] === undefined) continue;
    const data = parts[field] === undefined ? null : parts[field];
    const { issues, value } = checkOf(schema[part])(data);
    if (issues.length > 0) throw new ValidationFailure(issues);
    checked[field] = value ?? data;
  }
  return checked;
}

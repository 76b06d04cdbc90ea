// The signal operations on production's wire (/gtm/data/v1): the gateway's scope check and error
// shape (ZI0002 without the operation's scope), production's paging metadata (meta.page.total =
// records on this page; 400 PFAPI0004 past the last page) and links under /gtm. Each request is
// forwarded to the core route, so validation, data and rate limits are the default profile's.
import type { FastifyInstance } from "fastify";
import { MEDIA_TYPE, SCOPES, SIGNAL_LOOKUPS, SIGNAL_PATHS, type SignalOperation } from "../../core/contract/index.js";
import type { SandboxContext } from "../context.js";
import { ApiError } from "../errors.js";
import { authorize, gatewayHandler, relayAnswer, type CoreForwarder } from "../production/gateway.js";
import { stringQuery } from "../routes/validation.js";
import { signalLookupDocument } from "./routes.js";

const GTM = "/gtm";
const PAST_LAST_PAGE = "PFAPI0004";
const SCOPE_OF: Record<SignalOperation, string> = {
  intentSearch: SCOPES.intent,
  intentEnrich: SCOPES.intent,
  scoopSearch: SCOPES.scoops,
  scoopEnrich: SCOPES.scoops,
  newsSearch: SCOPES.news,
  newsEnrich: SCOPES.news,
  technologiesEnrich: SCOPES.company,
};
const PAGED = new Set<SignalOperation>(["intentSearch", "intentEnrich", "scoopSearch", "scoopEnrich", "newsSearch", "newsEnrich"]);

const queryOf = (url: string) => (url.includes("?") ? url.slice(url.indexOf("?")) : "");

type Doc = { data?: unknown[]; meta?: Record<string, unknown>; links?: Record<string, unknown> };

export async function productionSignalRoutes(app: FastifyInstance, ctx: SandboxContext, core: CoreForwarder): Promise<void> {
  for (const [operation, path] of Object.entries(SIGNAL_PATHS) as [SignalOperation, string][]) {
    app.post(
      `${GTM}${path}`,
      gatewayHandler(async (request, reply) => {
        await authorize(ctx, request, [SCOPE_OF[operation]], `${GTM}${path}`);
        const answer = await core.call(request, "POST", `${path}${queryOf(request.url)}`, request.body);
        if (answer.status !== 200 || !PAGED.has(operation)) return relayAnswer(reply, answer);
        const doc = answer.body as Doc;
        const records = Array.isArray(doc.data) ? doc.data.length : 0;
        const number = Number(new URLSearchParams(queryOf(request.url).slice(1)).get("page[number]") ?? 1) || 1;
        if (records === 0 && number > 1) {
          throw new ApiError(400, PAST_LAST_PAGE, `The page number ${number} is greater than the available results.`, { parameter: "page[number]" });
        }
        const links = Object.fromEntries(Object.entries(doc.links ?? {}).map(([k, v]) => [k, typeof v === "string" && v.startsWith("/data/") ? `${GTM}${v}` : v]));
        const page = { ...((doc.meta?.page as Record<string, unknown> | undefined) ?? {}), number, total: records };
        return relayAnswer(reply, answer, { ...doc, meta: { ...doc.meta, page }, links });
      }),
    );
  }
  // Lookups need any one data scope in production.
  for (const name of SIGNAL_LOOKUPS) {
    app.get(
      `${GTM}/data/v1/lookup/${name}`,
      gatewayHandler(async (request, reply) => {
        await authorize(ctx, request, Object.values(SCOPES), `${GTM}/data/v1/lookup/${name}`);
        return reply.type(MEDIA_TYPE).send(signalLookupDocument(name, stringQuery(request.query)));
      }),
    );
  }
}

// The signal operations on production's wire (/gtm/data/v1): the gateway's scope check and error
// shape (ZI0002 without the operation's scope), production's paging metadata (meta.page.total =
// the number of pages, as for company search; a page past the last is an empty page; above page
// 100 a 400) and links under /gtm. Each request calls the specification's operation directly, so
// validation, data and rate limits are the default profile's; answers are the service's published shapes.
import type { FastifyInstance } from "fastify";
import { MEDIA_TYPE, SIGNAL_LOOKUPS, SIGNAL_PATHS, SIGNAL_REQUESTS, type SignalOperation } from "../../core/contract/index.js";
import { gatewayHandler, relayAnswer } from "../production/gateway.js";
import type { OperationCaller } from "../routes/operations.js";
import { pageOf, pagedToWire, refuseBeyondPageCap } from "../production/paging.js";
import { stringQuery } from "../routes/validation.js";
import { productionHashtagRoutes } from "./hashtags.js";
import { signalLookupDocument } from "./routes.js";

const GTM = "/gtm";
const PAGED = new Set<SignalOperation>(["intentSearch", "intentEnrich", "scoopSearch", "scoopEnrich", "newsSearch", "newsEnrich"]);

export async function productionSignalRoutes(app: FastifyInstance, operations: OperationCaller): Promise<void> {
  for (const [operation, path] of Object.entries(SIGNAL_PATHS) as [SignalOperation, string][]) {
    app.post(
      `${GTM}${path}`,
      { config: { operation } },
      gatewayHandler(async (request, reply) => {
        const { number, size } = pageOf(request.url);
        if (PAGED.has(operation)) refuseBeyondPageCap(number);
        const answer = await operations.call(operation, request, { query: request.query as Record<string, unknown>, body: request.body });
        if (answer.status !== 200 || !PAGED.has(operation)) return relayAnswer(reply, answer);
        return relayAnswer(reply, answer, pagedToWire(answer.body as { meta?: Record<string, unknown> }, number, size));
      }),
    );
  }
  productionHashtagRoutes(app, operations);
  // Lookups need any one data scope in production.
  for (const name of SIGNAL_LOOKUPS) {
    app.get(
      `${GTM}/data/v1/lookup/${name}`,
      { config: { operation: "lookup" } },
      gatewayHandler(async (request, reply) => {
        return reply.type(MEDIA_TYPE).send(signalLookupDocument(name, stringQuery(request.query)));
      }),
    );
  }
}

/** The entities of the search field lookup that are signals, and their search operation. */
const SIGNAL_SEARCH_ENTITIES = { intent: "intentSearch", scoop: "scoopSearch", news: "newsSearch" } as const;
/** What each signal search answers (the service's published answer attributes). */
const SEARCH_ANSWER_FIELDS = {
  intent: ["category", "topic", "signalScore", "audienceStrength", "signalDate", "company", "recommendedContacts", "spikesInDateRange"],
  scoop: ["id", "publishedDate", "originalPublishedDate", "linkText", "link", "topics", "updateText", "types", "company", "contacts"],
  news: ["domain", "title", "url", "imageUrl", "pageDate", "categories", "company"],
} as const;

export const isSignalSearchEntity = (entity: unknown): entity is keyof typeof SIGNAL_SEARCH_ENTITIES =>
  typeof entity === "string" && Object.hasOwn(SIGNAL_SEARCH_ENTITIES, entity);

/** GET /lookup/search?filter[entity]=intent|scoop|news&filter[fieldType]=input|output. */
export function signalSearchFieldDocument(entity: keyof typeof SIGNAL_SEARCH_ENTITIES, fieldType: "input" | "output") {
  const names = fieldType === "input" ? Object.keys(SIGNAL_REQUESTS[SIGNAL_SEARCH_ENTITIES[entity]].filters) : [...SEARCH_ANSWER_FIELDS[entity]];
  const type = `${entity[0]!.toUpperCase()}${entity.slice(1)}Search${fieldType === "input" ? "Input" : "Output"}`;
  return {
    data: names.map((fieldName) => ({
      id: fieldName,
      type,
      attributes: { fieldName, description: `The ${entity} search's ${fieldName}.`, fieldType, accessGranted: true },
    })),
  };
}

// Corporate families and org charts served (docs/accounts.md): the handlers (handlers.ts) behind
// the specification profile's routes, and production's under /gtm calling those operations the
// way the profile's other routes do (its paging: links under /gtm, a page past the last a 400). The API
// hook gives each route its operation's scopes and the rate limit; the handlers charge credits
// and answer the service's errors.
import type { FastifyInstance } from "fastify";
import {
  CORPORATE_HIERARCHY_PATH,
  CorporateHierarchyEnrichRequest,
  ERROR_CODES,
  LOOKUP_ENRICH_PATH,
  ORG_CHART_PATH,
  OrgChartEnrichRequest,
  validateOrgChartBody,
} from "../../core/contract/index.js";
import { ApiError } from "../errors.js";
import type { SandboxFeature } from "../plugin.js";
import { gatewayHandler, relayAnswer } from "../production/gateway.js";
import { pageOf, pagedToWire } from "../production/paging.js";
import { answer, type OperationCaller } from "../routes/operations.js";
import { recordMatchers } from "../routes/enrich.js";
import { checkedBy, stringQuery } from "../routes/validation.js";
import { accountOperations, enrichCorporateHierarchy, enrichOrgChart } from "./handlers.js";
import { accountLookupDocument, isAccountLookupEntity } from "./lookupFields.js";

const GTM = "/gtm";
const ORG_CHART_BODY = checkedBy(OrgChartEnrichRequest, (body) => ({ issues: validateOrgChartBody(body) }));

/** The enrich lookup's answer for an account entity, or the service's 400 naming the filter at fault. */
export function enrichLookupAnswer(query: Readonly<Record<string, string | undefined>>) {
  const entity = query["filter[entity]"];
  if (!isAccountLookupEntity(entity)) {
    throw new ApiError(400, ERROR_CODES.validation, 'filter[entity] must be "corporate-hierarchy" or "orgChart".', { parameter: "filter[entity]" });
  }
  const doc = accountLookupDocument(entity, query["filter[fieldType]"] ?? "output");
  if (!doc) throw new ApiError(400, ERROR_CODES.validation, 'filter[fieldType] must be "input" or "output".', { parameter: "filter[fieldType]" });
  return doc;
}

/** The specification profile's three operations (the enrich lookup's fixed path wins over the lookup of a field's values). */
export const accountsFeature: SandboxFeature = (app, { ctx, operations }) => {
  const matchers = recordMatchers(ctx.db);
  const ops = accountOperations(ctx, (input) => matchers.company(input));
  operations.serve(app, {
    method: "GET",
    url: LOOKUP_ENRICH_PATH,
    operation: "lookupEnrich",
    handle: ({ query }) => answer(enrichLookupAnswer(stringQuery(query))),
  });
  operations.serve(app, {
    method: "POST",
    url: CORPORATE_HIERARCHY_PATH,
    operation: "enrichCorporateHierarchy",
    schema: { body: CorporateHierarchyEnrichRequest },
    handle: ({ body, principal }) => answer(enrichCorporateHierarchy(body, principal.account, ops)),
  });
  operations.serve(app, {
    method: "POST",
    url: ORG_CHART_PATH,
    operation: "enrichOrgChart",
    schema: { body: ORG_CHART_BODY },
    handle: ({ body, query, principal }) => answer(enrichOrgChart(body, stringQuery(query), principal.account, ops)),
  });
};

type PagedDoc = { meta?: { page?: { total?: unknown } } & Record<string, unknown>; links?: Record<string, unknown> };

/** Production refuses a page after the last (its own 400, no code of its own published for it). */
function refusePastLastPage(doc: PagedDoc, number: number): void {
  const total = typeof doc.meta?.page?.total === "number" ? doc.meta.page.total : 0;
  if (number > 1 && number > total) {
    throw new ApiError(400, ERROR_CODES.validation, `Page number cannot be greater than the last page, ${total}.`, { parameter: "page[number]" });
  }
}

/** Production's routes under /gtm: each calls the specification's operation with the caller's token. */
export function productionAccountRoutes(app: FastifyInstance, operations: OperationCaller): void {
  app.post(
    `${GTM}${CORPORATE_HIERARCHY_PATH}`,
    { config: { operation: "enrichCorporateHierarchy" } },
    gatewayHandler(async (request, reply) => relayAnswer(reply, await operations.call("enrichCorporateHierarchy", request, { body: request.body }))),
  );
  app.post(
    `${GTM}${ORG_CHART_PATH}`,
    { config: { operation: "enrichOrgChart" } },
    gatewayHandler(async (request, reply) => {
      const answer = await operations.call("enrichOrgChart", request, { query: request.query as Record<string, unknown>, body: request.body });
      if (answer.status !== 200) return relayAnswer(reply, answer);
      const { number, size } = pageOf(request.url);
      const doc = answer.body as PagedDoc;
      refusePastLastPage(doc, number);
      return relayAnswer(reply, answer, pagedToWire(doc, number, size));
    }),
  );
}

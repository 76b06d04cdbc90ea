// Production's data API under /gtm/data/v1: the core's search, enrichment, lookup and usage
// routes behind the gateway, with production's names on the wire, its paging metadata
// (meta.page.total = the number of pages; 400 PFAPI0002 above page 100), its contact sorts and
// its field entitlements (the lookup lists every output field; an unentitled one is refused
// only in the enrichment answer, 400 PFAPI0001 naming it).
import type { FastifyInstance, FastifyRequest } from "fastify";
import { DISALLOWED_FIELD_CODE, ERROR_CODES, MEDIA_TYPE, PATHS, PRODUCTION_CONTACT_SORT_FIELDS, disallowedFieldMessage } from "../../core/contract/index.js";
import { enrichLookupAnswer } from "../accounts/routes.js";
import { isAccountLookupEntity } from "../accounts/lookupFields.js";
import { principalOf } from "../routes/principal.js";
import { pageOf, pagedToWire, refuseBeyondPageCap } from "./paging.js";
import { searchFieldAnswer } from "../plan/searchFields.js";
import { ApiError, ValidationFailure } from "../errors.js";
import { fieldValuesDocument } from "../routes/lookupUsage.js";
import { outputFieldDocument, unentitled, type EntityKind } from "./entitlements.js";
import { gatewayHandler, relayAnswer } from "./gateway.js";
import type { OperationCaller } from "../routes/operations.js";
import { attributesToWire, outputFieldsFromWire, searchFiltersFromWire, toWireField } from "./names.js";
import { enrichedToWire } from "./recordShapes.js";
import { isUnservedOutputField } from "./vendorOutputFields.js";

const GTM = "/gtm";

/**
 * Contact sorts production has and the sandbox's data does not: each is served by a stand-in
 * order of the core (the sandbox keeps no hierarchy, source counts or mentions).
 */
const CONTACT_SORT_STAND_INS: Readonly<Record<string, string>> = { hierarchy: "relevance", sourceCount: "contactAccuracyScore", lastMentioned: "relevance" };

type Doc = { data?: unknown; meta?: Record<string, unknown>; links?: Record<string, unknown> };
type Item = { attributes?: unknown };

function attributesOf(body: unknown): Record<string, unknown> | undefined {
  const attributes = (body as { data?: { attributes?: unknown } } | null)?.data?.attributes;
  return attributes && typeof attributes === "object" && !Array.isArray(attributes) ? (attributes as Record<string, unknown>) : undefined;
}

function withAttributes(body: unknown, attributes: Record<string, unknown>): unknown {
  const b = body as { data: Record<string, unknown> };
  return { ...b, data: { ...b.data, attributes } };
}

function itemsToWire(doc: Doc, shape: (attributes: unknown) => unknown = (a) => a): Doc {
  if (!Array.isArray(doc.data)) return doc;
  return {
    ...doc,
    data: doc.data.map((item: Item) =>
      item && typeof item === "object" && "attributes" in item ? { ...item, attributes: shape(attributesToWire(item.attributes)) } : item,
    ),
  };
}

/** The query the core is asked: production's contact sorts turned into the core's stand-ins. */
function coreQuery(query: Record<string, unknown>, kind: EntityKind): Record<string, unknown> {
  if (kind !== "contact" || query.sort === undefined) return query;
  // A repeated parameter counts by its first value.
  const sort = String([query.sort].flat()[0]);
  const descending = sort.startsWith("-");
  const bare = descending ? sort.slice(1) : sort;
  if (!(PRODUCTION_CONTACT_SORT_FIELDS as readonly string[]).includes(bare) || !Object.hasOwn(CONTACT_SORT_STAND_INS, bare)) return query;
  return { ...query, sort: `${descending ? "-" : ""}${CONTACT_SORT_STAND_INS[bare]!}` };
}

/**
 * The fields the core is asked: production's fields the sandbox holds no data for are left out
 * (the answer has no value for them); when nothing else is asked, the record's id.
 */
function servedFields(kind: EntityKind, fields: unknown, fallback: string[] | undefined): unknown {
  if (!Array.isArray(fields)) return fields;
  const served = fields.filter((name) => !isUnservedOutputField(kind, name));
  return served.length === 0 && fields.length > 0 ? fallback : served;
}

/** A search on production's wire: its names and paging turned into the core's and back. */
function searchHandler(operations: OperationCaller, kind: EntityKind, operation: string) {
  return gatewayHandler(async (request, reply) => {
    let body = request.body;
    const attributes = attributesOf(body);
    if (attributes) {
      const translated = searchFiltersFromWire(attributes, kind);
      if (translated.issues.length > 0) throw new ValidationFailure(translated.issues);
      body = withAttributes(body, translated.attributes);
    }
    const { number, size } = pageOf(request.url);
    refuseBeyondPageCap(number);
    const answer = await operations.call(operation, request, { query: coreQuery(request.query as Record<string, unknown>, kind), body });
    if (answer.status !== 200) return relayAnswer(reply, answer);
    return relayAnswer(reply, answer, pagedToWire(itemsToWire(answer.body as Doc), number, size));
  });
}

/** An enrichment on production's wire: its field names and entitlements, then the core's answer in its names. */
function enrichHandler(operations: OperationCaller, kind: EntityKind, operation: string) {
  return gatewayHandler(async (request, reply) => {
    const principal = principalOf(request);
    let body = request.body;
    const attributes = attributesOf(body);
    if (attributes) {
      const output = outputFieldsFromWire(attributes.outputFields, "/data/attributes/outputFields");
      const required = outputFieldsFromWire(attributes.requiredFields, "/data/attributes/requiredFields");
      output.fields = servedFields(kind, output.fields, ["id"]);
      required.fields = servedFields(kind, required.fields, []);
      const issues = [...output.issues, ...required.issues];
      if (issues.length > 0) throw new ValidationFailure(issues);
      const asked = [...(Array.isArray(output.fields) ? output.fields : []), ...(Array.isArray(required.fields) ? required.fields : [])].filter(
        (f): f is string => typeof f === "string",
      );
      const refused = [...new Set(unentitled(principal.account, kind, asked))];
      if (refused.length > 0) {
        throw new ValidationFailure(
          refused.map((field) => ({
            pointer: "/data/attributes/outputFields",
            label: toWireField(field),
            rule: "notEntitled",
            code: DISALLOWED_FIELD_CODE,
            message: disallowedFieldMessage(toWireField(field)),
          })),
        );
      }
      body = withAttributes(body, {
        ...attributes,
        outputFields: output.fields,
        ...(attributes.requiredFields !== undefined ? { requiredFields: required.fields } : {}),
      });
    }
    const answer = await operations.call(operation, request, { body });
    if (answer.status !== 200) return relayAnswer(reply, answer);
    return relayAnswer(
      reply,
      answer,
      itemsToWire(answer.body as Doc, (attributes) => enrichedToWire(kind, attributes)),
    );
  });
}

export async function productionDataRoutes(app: FastifyInstance, operations: OperationCaller): Promise<void> {
  const serves = (operation: string) => ({ config: { operation } });
  app.post(`${GTM}${PATHS.searchCompanies}`, serves("searchCompanies"), searchHandler(operations, "company", "searchCompanies"));
  app.post(`${GTM}${PATHS.searchContacts}`, serves("searchContacts"), searchHandler(operations, "contact", "searchContacts"));
  app.post(`${GTM}${PATHS.enrichCompanies}`, serves("enrichCompanies"), enrichHandler(operations, "company", "enrichCompanies"));
  app.post(`${GTM}${PATHS.enrichContacts}`, serves("enrichContacts"), enrichHandler(operations, "contact", "enrichContacts"));

  // The output-field lookup: every output field (like production's, not cut to the account's entitlement).
  for (const use of ["enrich", "search"] as const) {
    app.get(
      `${GTM}/data/v1/lookup/${use}`,
      serves(use === "enrich" ? "lookupEnrich" : "lookup"),
      gatewayHandler(async (request: FastifyRequest, reply) => {
        const query = request.query as Record<string, string | undefined>;
        const entity = query["filter[entity]"];
        const fieldType = query["filter[fieldType]"] ?? "output";
        // The search lookup: input fields with accessGranted from the user's plan, and output fields (plan/searchFields.ts).
        if (use === "search") return reply.type(MEDIA_TYPE).send(searchFieldAnswer(query, principalOf(request), "production"));
        // The enrich lookup also describes the corporate hierarchy and the org chart, input and output.
        if (use === "enrich" && isAccountLookupEntity(entity)) return reply.type(MEDIA_TYPE).send(enrichLookupAnswer(query));
        if (entity !== "company" && entity !== "contact") {
          const entities = '"company", "contact", "corporate-hierarchy" or "orgChart"';
          throw new ApiError(400, ERROR_CODES.validation, `filter[entity] must be ${entities}.`, { parameter: "filter[entity]" });
        }
        if (fieldType !== "output") {
          throw new ApiError(400, ERROR_CODES.validation, 'filter[fieldType] must be "output".', { parameter: "filter[fieldType]" });
        }
        return reply.type(MEDIA_TYPE).send(outputFieldDocument(entity));
      }),
    );
  }

  // Lookup and usage need any one data scope in production.
  app.get<{ Params: { fieldName: string } }>(
    `${GTM}/data/v1/lookup/:fieldName`,
    serves("lookup"),
    gatewayHandler(async (request, reply) => {
      const { fieldName } = request.params as { fieldName: string };
      return reply.type(MEDIA_TYPE).send(fieldValuesDocument(fieldName));
    }),
  );
  app.get(
    `${GTM}${PATHS.usage}`,
    serves("usage"),
    gatewayHandler(async (request, reply) => {
      return relayAnswer(reply, await operations.call("usage", request));
    }),
  );
}

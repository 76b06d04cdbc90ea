// Writes the vendor conformance fixtures (test/fixtures/vendor/) from the service's published API
// descriptions, so the tests run without them. For each description it keeps:
//   - components.schemas, without prose (description, example, summary, title, x-* extensions):
//     every keyword that validates stays;
//   - per operation (by operationId): method, path, parameters (schemas without prose), the
//     request body's schema $ref, whether it is required and its content types, the success
//     status and every response's schema $ref, and every request and answer example.
// Output: one JSON file per description, keys sorted, one schema or operation per line.
//
//   node scripts/vendor-fixtures.mjs [vendor folder]   (default: ../shared/vendor)
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const SOURCES = {
  data: { file: "gtm-data-v1-openapi.json" },
  studio: { file: "gtm-studio-v1-openapi.json" },
  // Only the research and lookalike operations the add-in uses (docs/research.md), and the schemas they reach.
  copilot: {
    file: "gtm-copilot-v1-openapi.json",
    operations: [
      "AccountSummaryInterface_getAccountSummary",
      "AccountSummaryInterface_askAccountSummaryQuestion",
      "CompanyLookalikesInterface_companyLookalikes",
      "ContactLookalikesInterface_getContactLookalikes",
      "ContactRecommendationsInterface_getContactRecommendations",
    ],
  },
  // The copilot API's insights (docs/signals.md), apart: the request and answer schemas and every payload they reach.
  insights: { file: "gtm-copilot-v1-openapi.json", operations: ["InsightsInterface_getCompanyInsightsByType"] },
  // Only the user's entitlements (docs/entitlements.md).
  platform: { file: "gtm-platform-v1-openapi.json", operations: ["EntitlementsController_getEntitlements"] },
};
const OUT = resolve(import.meta.dirname, "../test/fixtures/vendor");
const PROSE = new Set(["description", "example", "examples", "summary", "title"]);
/** Keywords whose value is data (not a schema, not a map of schemas): copied as they are. */
const DATA = new Set(["enum", "default", "required", "const", "discriminator", "pattern", "format", "type"]);
/** Keywords whose value maps names to schemas: the names are data, the values schemas. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "definitions", "$defs"]);
const METHODS = new Set(["get", "put", "post", "patch", "delete", "head", "options"]);

/** A schema without its prose; names of properties are kept whatever they are. */
function stripSchema(schema) {
  if (Array.isArray(schema)) return schema.map(stripSchema);
  if (schema === null || typeof schema !== "object") return schema;
  const out = {};
  for (const [key, value] of Object.entries(schema)) {
    if (PROSE.has(key) || key.startsWith("x-")) continue;
    if (DATA.has(key)) out[key] = value;
    else if (SCHEMA_MAPS.has(key)) out[key] = mapValues(value, stripSchema);
    else out[key] = stripSchema(value);
  }
  return out;
}

function mapValues(object, fn) {
  return Object.fromEntries(Object.entries(object).map(([key, value]) => [key, fn(value)]));
}

/** Every example of one media type: `example` (named "example") and each of `examples`. */
function examplesOf(media) {
  const out = [];
  if (media?.example !== undefined) out.push({ name: "example", value: media.example });
  for (const [name, example] of Object.entries(media?.examples ?? {})) {
    if (example.$ref) throw new Error(`example ${name} is a reference (${example.$ref}): not supported`);
    out.push({ name, value: example.value });
  }
  return out;
}

function parameterOf(parameter) {
  const out = { in: parameter.in, name: parameter.name, required: parameter.required === true };
  if (parameter.schema) out.schema = stripSchema(parameter.schema);
  if (parameter.explode !== undefined) out.explode = parameter.explode;
  const examples = examplesOf(parameter);
  if (examples.length > 0) out.examples = examples;
  return out;
}

function requestOf(operation) {
  const body = operation.requestBody;
  if (!body) return undefined;
  const contentTypes = [...Object.keys(body.content), ...(operation["x-additional-content-types"] ?? [])];
  const media = Object.values(body.content);
  return {
    contentTypes,
    examples: media.flatMap(examplesOf),
    required: body.required === true,
    schema: media.find((m) => m.schema)?.schema?.$ref ?? null,
  };
}

function responsesOf(operation) {
  const schemas = {};
  const examples = [];
  for (const [status, response] of Object.entries(operation.responses)) {
    const media = Object.values(response.content ?? {});
    schemas[status] = media.find((m) => m.schema)?.schema?.$ref ?? null;
    if (/^2/.test(status)) examples.push(...media.flatMap(examplesOf).map((e) => ({ ...e, status: Number(status) })));
  }
  const success = Object.keys(operation.responses)
    .filter((s) => /^2/.test(s))
    .map(Number);
  return { examples, schemas, success };
}

function operationOf(method, path, item, operation) {
  const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map(parameterOf);
  const { examples, schemas, success } = responsesOf(operation);
  const out = { method: method.toUpperCase(), parameters, path, responseExamples: examples, responses: schemas, success };
  const request = requestOf(operation);
  if (request) out.request = request;
  return out;
}

export function fixtureOf(description) {
  const operations = {};
  for (const [path, item] of Object.entries(description.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.has(method)) continue;
      if (operations[operation.operationId]) throw new Error(`operationId ${operation.operationId} twice`);
      operations[operation.operationId] = operationOf(method, path, item, operation);
    }
  }
  return {
    openapi: description.openapi,
    version: description.info?.version ?? null,
    operations,
    schemas: mapValues(description.components?.schemas ?? {}, stripSchema),
  };
}

const SCHEMA_REF = "#/components/schemas/";

/** The schema names a value refers to (`#/components/schemas/Name`), at any depth. */
function refsOf(value, out = new Set()) {
  if (Array.isArray(value)) value.forEach((v) => refsOf(v, out));
  else if (value !== null && typeof value === "object") {
    for (const inner of Object.values(value)) refsOf(inner, out);
  } else if (typeof value === "string" && value.startsWith(SCHEMA_REF)) {
    // A `$ref`, or an operation's request or response schema (kept as the reference itself).
    out.add(value.slice(SCHEMA_REF.length));
  }
  return out;
}

/** The fixture with only the named operations and the schemas they reach (directly or through other schemas). */
export function onlyOperations(fixture, names) {
  const operations = {};
  for (const name of names) {
    if (!fixture.operations[name]) throw new Error(`operationId ${name} is not in the description`);
    operations[name] = fixture.operations[name];
  }
  const reached = new Set();
  const pending = [...refsOf(operations)];
  while (pending.length > 0) {
    const name = pending.pop();
    if (reached.has(name)) continue;
    reached.add(name);
    if (!fixture.schemas[name]) throw new Error(`schema ${name} is referred to but not defined`);
    pending.push(...refsOf(fixture.schemas[name]));
  }
  const schemas = Object.fromEntries(Object.entries(fixture.schemas).filter(([name]) => reached.has(name)));
  return { ...fixture, operations, schemas };
}

/** Keys sorted at every level (arrays keep their order). */
function sorted(value) {
  if (Array.isArray(value)) return value.map(sorted);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sorted(value[key])]),
  );
}

/** Top-level keys one per line; `operations` and `schemas` one entry per line. */
function serialize(fixture) {
  const lines = ["{"];
  const keys = Object.keys(fixture).sort();
  keys.forEach((key, i) => {
    const comma = i < keys.length - 1 ? "," : "";
    const value = sorted(fixture[key]);
    if (key !== "operations" && key !== "schemas") {
      lines.push(`${JSON.stringify(key)}:${JSON.stringify(value)}${comma}`);
      return;
    }
    const names = Object.keys(value);
    lines.push(`${JSON.stringify(key)}:{`);
    names.forEach((name, j) => lines.push(`${JSON.stringify(name)}:${JSON.stringify(value[name])}${j < names.length - 1 ? "," : ""}`));
    lines.push(`}${comma}`);
  });
  lines.push("}");
  return lines.join("\n") + "\n";
}

function main() {
  const folder = resolve(process.argv[2] ?? resolve(import.meta.dirname, "../../shared/vendor"));
  mkdirSync(OUT, { recursive: true });
  for (const [api, { file, operations }] of Object.entries(SOURCES)) {
    const description = JSON.parse(readFileSync(join(folder, file), "utf8"));
    const whole = fixtureOf(description);
    const fixture = operations ? onlyOperations(whole, operations) : whole;
    const text = serialize(fixture);
    writeFileSync(join(OUT, `${api}.json`), text);
    console.log(`${api}.json: ${Object.keys(fixture.operations).length} operations, ${text.length} bytes (from ${file})`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main();

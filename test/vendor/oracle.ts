// The vendor oracle: the real service's published API descriptions (their schemas and examples,
// copied into test/fixtures/vendor/ by scripts/vendor-fixtures.mjs) as a validator for requests
// and answers. Ajv compiles the OpenAPI 3.0 components as one schema with an $id; an operation's
// request and answer schemas are `{$ref: "<id>#/components/schemas/Name"}`.
//
// OpenAPI 3.0 differences from JSON Schema handled here (nothing else is relaxed):
//   - `nullable: true` is Ajv's own OpenAPI keyword;
//   - formats int16/uint8/uint32 (besides ajv-formats' int32/int64/double) are integer ranges;
//   - `discriminator` with a `mapping`, which Ajv does not compile, becomes: the property is one
//     of the mapped values (or a oneOf schema's name, OpenAPI's implicit mapping) and the value
//     selects the schema the document must match;
//   - a `readOnly` property listed in `required` is required in answers only;
//   - format `uri` (only on paging links) is a URI reference: the vendor's own example answers
//     carry relative links (`/data/v1/companies/search?page[number]=1&page[size]=25`).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";

export type VendorApi = "data" | "studio" | "copilot" | "insights" | "platform";

export interface VendorExample {
  name: string;
  value: unknown;
  /** For an answer: the status it is documented with. */
  status?: number;
}

export interface VendorParameter {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required: boolean;
  schema?: Record<string, unknown>;
}

export interface VendorOperation {
  operationId: string;
  method: string;
  /** The path as published, e.g. `/data/v1/lookup/{fieldName}`. */
  path: string;
  parameters: VendorParameter[];
  /** The request body: its schema's name, whether it must be sent, the content types taken. */
  request?: { schema: string | null; required: boolean; contentTypes: string[] };
  /** The documented success statuses (2xx). */
  success: number[];
  requestExamples: VendorExample[];
  responseExamples: VendorExample[];
}

interface FixtureOperation {
  method: string;
  path: string;
  parameters: VendorParameter[];
  request?: { schema: string | null; required: boolean; contentTypes: string[]; examples: VendorExample[] };
  responses: Record<string, string | null>;
  responseExamples: VendorExample[];
  success: number[];
}

interface Fixture {
  operations: Record<string, FixtureOperation>;
  schemas: Record<string, unknown>;
}

type Direction = "request" | "response";
type Json = Record<string, unknown>;

const SCHEMAS = "#/components/schemas/";
const fixtures = new Map<VendorApi, Fixture>();
const validators = new Map<string, ValidateFunction>();
const ajvs = new Map<string, Ajv>();

function fixture(api: VendorApi): Fixture {
  let loaded = fixtures.get(api);
  if (!loaded) {
    const file = fileURLToPath(new URL(`../fixtures/vendor/${api}.json`, import.meta.url));
    loaded = JSON.parse(readFileSync(file, "utf8")) as Fixture;
    fixtures.set(api, loaded);
  }
  return loaded;
}

function fixtureOperation(api: VendorApi, operationId: string): FixtureOperation {
  const operation = fixture(api).operations[operationId];
  if (!operation) throw new Error(`the vendor's ${api} API has no operation ${operationId}`);
  return operation;
}

/** The operation's published method, path, parameters and examples. */
export function vendorOperation(api: VendorApi, operationId: string): VendorOperation {
  const op = fixtureOperation(api, operationId);
  const out: VendorOperation = {
    operationId,
    method: op.method,
    path: op.path,
    parameters: op.parameters,
    success: op.success,
    requestExamples: op.request?.examples ?? [],
    responseExamples: op.responseExamples,
  };
  if (op.request) {
    const { schema, required, contentTypes } = op.request;
    out.request = { schema: schema ? schemaName(schema) : null, required, contentTypes };
  }
  return out;
}

/** Every operationId of one API. */
export function vendorOperationIds(api: VendorApi): string[] {
  return Object.keys(fixture(api).operations);
}

/** Why `body` is not a valid request body of the operation (empty: it is). */
export function requestErrors(api: VendorApi, operationId: string, body: unknown): string[] {
  const request = fixtureOperation(api, operationId).request;
  if (!request) return body === undefined ? [] : ["/ the operation takes no request body"];
  if (body === undefined) return request.required ? ["/ the request body is required"] : [];
  if (!request.schema) return [];
  return validate(api, "request", schemaName(request.schema), body);
}

/** A component schema as published (prose removed), e.g. to read an enum. */
export function vendorSchema(api: VendorApi, name: string): Record<string, unknown> {
  const schema = fixture(api).schemas[name];
  if (!schema) throw new Error(`the vendor's ${api} API has no schema ${name}`);
  return structuredClone(schema) as Record<string, unknown>;
}

/** Why `doc` is not a valid answer of the operation with `status` (default: its first success). */
export function responseErrors(api: VendorApi, operationId: string, doc: unknown, status?: number): string[] {
  const op = fixtureOperation(api, operationId);
  const asked = status ?? op.success[0];
  const ref = asked === undefined ? undefined : op.responses[String(asked)];
  if (ref === undefined) return [`/ status ${asked} is not documented for ${operationId}`];
  if (ref === null) return doc === undefined || doc === "" ? [] : [`/ status ${asked} has no body`];
  return validate(api, "response", schemaName(ref), doc);
}

/** Why `value` does not match the named component schema (as an answer). */
export function schemaErrors(api: VendorApi, name: string, value: unknown, direction: Direction = "response"): string[] {
  return validate(api, direction, name, value);
}

function schemaName(ref: string): string {
  if (!ref.startsWith(SCHEMAS)) throw new Error(`not a component schema: ${ref}`);
  return ref.slice(SCHEMAS.length);
}

function validate(api: VendorApi, direction: Direction, name: string, value: unknown): string[] {
  const check = validator(api, direction, name);
  return check(value) ? [] : (check.errors ?? []).map(describe);
}

/** One message per error, naming the JSON pointer of the value in the document. */
function describe(error: ErrorObject): string {
  const where = error.instancePath === "" ? "/" : error.instancePath;
  const params = Object.keys(error.params).length > 0 ? ` ${JSON.stringify(error.params)}` : "";
  return `${where} ${error.message ?? error.keyword}${params}`;
}

function validator(api: VendorApi, direction: Direction, name: string): ValidateFunction {
  const key = `${api}:${direction}:${name}`;
  let check = validators.get(key);
  if (!check) {
    if (!(name in fixture(api).schemas)) throw new Error(`the vendor's ${api} API has no schema ${name}`);
    const id = `vendor-${api}-${direction}`;
    check = ajv(api, direction, id).compile({ $ref: `${id}${SCHEMAS}${name}` });
    validators.set(key, check);
  }
  return check;
}

function ajv(api: VendorApi, direction: Direction, id: string): Ajv {
  let instance = ajvs.get(id);
  if (!instance) {
    instance = new Ajv({ allErrors: true, strict: true, strictTypes: false, strictTuples: false });
    addFormats(instance);
    addIntegerFormats(instance);
    instance.addKeyword({ keyword: "components" });
    instance.addKeyword({ keyword: "openapiDiscriminator" });
    const schemas = adapt(fixture(api).schemas, direction) as Json;
    instance.addSchema({ $id: id, components: { schemas } });
    ajvs.set(id, instance);
  }
  return instance;
}

function addIntegerFormats(instance: Ajv): void {
  const range = (min: number, max: number) => (n: number) => Number.isInteger(n) && n >= min && n <= max;
  instance.addFormat("int16", { type: "number", validate: range(-32768, 32767) });
  instance.addFormat("uint8", { type: "number", validate: range(0, 255) });
  instance.addFormat("uint32", { type: "number", validate: range(0, 4294967295) });
  instance.addFormat("uri", { type: "string", validate: isUriReference });
}

function isUriReference(value: string): boolean {
  if (value === "" || /\s/.test(value)) return false;
  return URL.canParse(value, "https://vendor.invalid/");
}

/** The components with OpenAPI's discriminator and readOnly rules written as JSON Schema. */
function adapt(value: unknown, direction: Direction): unknown {
  if (Array.isArray(value)) return value.map((item) => adapt(item, direction));
  if (value === null || typeof value !== "object") return value;
  let schema: Json = {};
  for (const [key, sub] of Object.entries(value)) {
    if (key === "properties") schema[key] = adaptEach(sub as Json, direction);
    else schema[key] = DATA_KEYWORDS.has(key) ? sub : adapt(sub, direction);
  }
  if (direction === "request") schema = withoutReadOnlyRequired(schema);
  return schema.discriminator ? discriminated(schema) : schema;
}

const DATA_KEYWORDS = new Set(["enum", "default", "required", "discriminator"]);

function adaptEach(schemas: Json, direction: Direction): Json {
  return Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, adapt(schema, direction)]));
}

function withoutReadOnlyRequired(schema: Json): Json {
  const properties = schema.properties as Record<string, Json> | undefined;
  if (!Array.isArray(schema.required) || !properties) return schema;
  const required = (schema.required as string[]).filter((name) => properties[name]?.readOnly !== true);
  return { ...schema, required };
}

/** `discriminator` + `oneOf` as: the property names one mapped schema, and the document matches it. */
function discriminated(schema: Json): Json {
  const { discriminator, oneOf, ...rest } = schema as Json & { discriminator: Json; oneOf?: Json[] };
  const property = discriminator.propertyName as string;
  const mapping: Record<string, string> = { ...(discriminator.mapping as Record<string, string> | undefined) };
  for (const option of oneOf ?? []) {
    const ref = option.$ref as string | undefined;
    if (ref?.startsWith(SCHEMAS) && !Object.values(mapping).includes(ref)) mapping[schemaName(ref)] = ref;
  }
  const selects = Object.entries(mapping).map(([tag, ref]) => ({
    if: { properties: { [property]: { const: tag } } },
    then: { $ref: ref },
  }));
  const named = { required: [property], properties: { [property]: { enum: Object.keys(mapping) } } };
  return { ...rest, openapiDiscriminator: property, allOf: [...((rest.allOf as Json[] | undefined) ?? []), named, ...selects] };
}

// The error objects of an answer's body, in both of the service's shapes (JSON:API `errors` and
// the gateway's `error`), and a validation answer's objects as issues with the field's label.
import { labelForPointer, type ValidationIssue } from "../contract/index.js";
import type { ServiceErrorObject } from "./types.js";

function asString(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  return undefined;
}

function readObject(raw: unknown): ServiceErrorObject | undefined {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return undefined;
  const r = raw as Record<string, unknown>;
  const out: ServiceErrorObject = {};
  const id = asString(r.id);
  const code = asString(r.code);
  const status = asString(r.status);
  const title = asString(r.title);
  const detail = asString(r.detail) ?? asString(r.message);
  const requestId = asString(r.requestId);
  if (id !== undefined) out.id = id;
  if (code !== undefined) out.code = code;
  if (status !== undefined) out.status = status;
  if (title !== undefined) out.title = title;
  if (detail !== undefined) out.detail = detail;
  if (requestId !== undefined) out.requestId = requestId;
  if (typeof r.retryable === "boolean") out.retryable = r.retryable;
  if (r.source !== null && typeof r.source === "object") {
    const s = r.source as Record<string, unknown>;
    const source: NonNullable<ServiceErrorObject["source"]> = {};
    for (const key of ["pointer", "parameter", "header", "cookie"] as const) {
      const v = asString(s[key]);
      if (v !== undefined) source[key] = v;
    }
    out.source = source;
  }
  return out;
}

/** Both error shapes: `{errors:[...]}` (JSON:API) and `{error:{...}}` (the gateway); docs/service.md, "Errors". */
export function readErrorObjects(body: string): ServiceErrorObject[] {
  if (body.trim() === "") return [];
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch {
    // Not JSON (a proxy's HTML page, say): nothing to read, the status still says what happened.
    return [];
  }
  if (doc === null || typeof doc !== "object") return [];
  const d = doc as Record<string, unknown>;
  const out: ServiceErrorObject[] = [];
  if (Array.isArray(d.errors)) {
    for (const e of d.errors) {
      const o = readObject(e);
      if (o) out.push(o);
    }
  }
  const gateway = readObject(d.error);
  if (gateway) out.push(gateway);
  if (out.length === 0 && (typeof d.title === "string" || typeof d.detail === "string")) {
    const o = readObject({ title: d.title, detail: d.detail });
    if (o) out.push(o);
  }
  return out;
}

/** A validation answer's error objects as issues, with the pointer and the field's label. */
export function issuesFromErrors(errors: ServiceErrorObject[]): ValidationIssue[] {
  return errors.map((e) => {
    const pointer = e.source?.pointer;
    const parameter = e.source?.parameter;
    const label = pointer !== undefined ? labelFromPointer(pointer) : labelFromParameter(parameter);
    const issue: ValidationIssue = {
      label,
      rule: e.code ?? "invalid",
      code: e.code ?? "",
      message: e.detail ?? e.title ?? "The service did not accept this value.",
    };
    if (pointer !== undefined) issue.pointer = pointer;
    if (parameter !== undefined) issue.parameter = parameter;
    return issue;
  });
}

const PARAMETER_LABELS: Record<string, string> = {
  "page[number]": "Page number",
  "page[size]": "Page size",
  sort: "Sort",
  audienceId: "Audience",
};

function labelFromParameter(parameter: string | undefined): string {
  if (parameter === undefined || parameter === "") return "Request";
  return PARAMETER_LABELS[parameter] ?? parameter;
}

/** The service's error objects carry no label: name the field as the client's own check does. */
function labelFromPointer(pointer: string): string {
  return labelForPointer(pointer);
}

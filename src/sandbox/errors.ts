// The error document (docs/service.md, "Errors") (and the gateway's shape for 401/403/429), built in one place.
import { randomUUID } from "node:crypto";
import type { FastifyReply } from "fastify";
import { ERROR_CODES, MEDIA_TYPE, gatewayErrorBody, type ErrorDocument, type ErrorObject, type ValidationIssue } from "../core/contract/index.js";

const TITLES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  402: "Payment Required",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
};

function titleFor(status: number): string {
  return TITLES[status] ?? (status >= 500 ? "Server Error" : "Error");
}

/** An error a route throws to answer with a JSON:API error document. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly source?: ErrorObject["source"];
  readonly headers: Record<string, string>;

  constructor(status: number, code: string, detail: string, source?: ErrorObject["source"], headers: Record<string, string> = {}) {
    super(detail);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.source = source;
    this.headers = headers;
  }
}

/** Many validation issues at once (one error object each). */
export class ValidationFailure extends Error {
  readonly issues: ValidationIssue[];
  constructor(issues: ValidationIssue[]) {
    super(issues.map((i) => i.message).join(" "));
    this.name = "ValidationFailure";
    this.issues = issues;
  }
}

export function errorObject(status: number, code: string, detail: string, source?: ErrorObject["source"]): ErrorObject {
  return { id: randomUUID(), code, status: String(status), title: titleFor(status), detail, ...(source ? { source } : {}) };
}

export function validationDocument(issues: ValidationIssue[]): ErrorDocument {
  return {
    errors: issues.map((issue) =>
      errorObject(400, issue.code, issue.message, issue.pointer !== undefined ? { pointer: issue.pointer } : { parameter: issue.parameter ?? "" }),
    ),
    title: "The request is not valid",
    detail: issues.length === 1 ? issues[0]!.message : `${issues.length} problems in the request.`,
  };
}

export function sendErrorDocument(reply: FastifyReply, status: number, document: ErrorDocument): FastifyReply {
  return reply.code(status).type(MEDIA_TYPE).send(document);
}

export function sendError(reply: FastifyReply, status: number, code: string, detail: string, source?: ErrorObject["source"]): FastifyReply {
  return sendErrorDocument(reply, status, { errors: [errorObject(status, code, detail, source)] });
}

/**
 * The production gateway's shape ({"error": {...}}, written by the contract's gatewayErrorBody):
 * the production profile's gateway answers and the default profile's `--gateway-errors` fault.
 */
export function sendGatewayError(reply: FastifyReply, status: number, code: string, message: string, headers: Record<string, string> = {}): FastifyReply {
  return reply
    .code(status)
    .headers(headers)
    .type("application/json")
    .send(gatewayErrorBody(status, code, message, randomUUID()));
}

/** An answer as status, headers, media type and body: what the error handler sends, and an operation call returns. */
export interface ErrorAnswer {
  status: number;
  headers: Record<string, string>;
  type: string;
  body: unknown;
}

const document = (status: number, body: ErrorDocument, headers: Record<string, string> = {}): ErrorAnswer => ({ status, headers, type: MEDIA_TYPE, body });
const single = (status: number, code: string, detail: string, source?: ErrorObject["source"]) =>
  document(status, { errors: [errorObject(status, code, detail, source)] });

/** Fastify's own failures to read a request, as the service's error documents. */
function requestFailure(error: { code?: string; message: string }): ErrorAnswer | undefined {
  if (error.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") {
    return single(415, ERROR_CODES.unsupportedMediaType, "Send the body as application/vnd.api+json or application/json.", { header: "Content-Type" });
  }
  if (error.code === "FST_ERR_CTP_EMPTY_JSON_BODY")
    return single(400, ERROR_CODES.validation, "The request body is empty: send a JSON document.", { pointer: "" });
  if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") return single(413, ERROR_CODES.validation, "The request body is larger than 1 MB.");
  if (error instanceof SyntaxError || error.code === "FST_ERR_CTP_INVALID_JSON_BODY") {
    return single(400, ERROR_CODES.validation, `The request body is not valid JSON (${error.message}).`, { pointer: "" });
  }
  return undefined;
}

/**
 * Any failure as the service's error document (the gateway's shape for 401/403/429 when
 * `gatewayErrors`, the `--gateway-errors` fault, asks for it). An unexpected failure is a 500
 * and is written to stderr with `where` it happened.
 */
export function errorAnswer(error: unknown, gatewayErrors: boolean, where: string): ErrorAnswer {
  if (error instanceof ValidationFailure) return document(400, validationDocument(error.issues));
  if (error instanceof ApiError) {
    if (gatewayErrors && (error.status === 401 || error.status === 403 || error.status === 429)) {
      return {
        status: error.status,
        headers: error.headers,
        type: "application/json",
        body: gatewayErrorBody(error.status, error.code, error.message, randomUUID()),
      };
    }
    return { ...single(error.status, error.code, error.message, error.source), headers: error.headers };
  }
  const failure = error instanceof Error ? (error as Error & { code?: string; statusCode?: unknown }) : new Error(String(error));
  const known = requestFailure(failure);
  if (known) return known;
  const statusCode = (failure as { statusCode?: unknown }).statusCode;
  const status = typeof statusCode === "number" && statusCode >= 400 && statusCode < 600 ? statusCode : 500;
  if (status < 500) return single(status, ERROR_CODES.validation, failure.message);
  // An unexpected failure: answer with what went wrong and keep it visible on stderr.
  process.stderr.write(`sandbox: ${where} failed: ${failure.stack ?? failure.message}\n`);
  return document(500, { errors: [errorObject(500, ERROR_CODES.server, `The sandbox failed to handle the request: ${failure.message}`)] });
}

/** Sends an answer built by errorAnswer. */
export function sendAnswer(reply: FastifyReply, answer: ErrorAnswer): FastifyReply {
  return reply.code(answer.status).headers(answer.headers).type(answer.type).send(answer.body);
}

// The error document (docs/service.md, "Errors") (and the gateway's shape for 401/403/429), built in one place.
import { randomUUID } from "node:crypto";
import type { FastifyReply } from "fastify";
import { MEDIA_TYPE, gatewayErrorBody, type ErrorDocument, type ErrorObject, type ValidationIssue } from "../core/contract/index.js";

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

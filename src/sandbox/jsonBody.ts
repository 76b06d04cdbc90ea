// The sandbox's one JSON body parser (application/json and application/vnd.api+json alike):
// Fastify's own, behind a depth check. JSON text nested deeper than MAX_JSON_DEPTH arrays and
// objects is refused with 400 before it is parsed, so no later step that walks the document
// (validation, the production profile's translation) can run out of stack on it.
import type { FastifyInstance } from "fastify";
import { ERROR_CODES, MEDIA_TYPE } from "../core/contract/index.js";
import { ApiError } from "./errors.js";

/** Arrays and objects one inside another a request may nest: every document of the API needs fewer than 10. */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x5b, 0x7b]);
const CLOSERS = new Set([0x5d, 0x7d]);

/** Whether JSON text nests arrays and objects deeper than `limit` (brackets inside strings do not count). */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (OPENERS.has(c)) {
      if (++depth > limit) return true;
    } else if (CLOSERS.has(c)) depth--;
  }
  return false;
}

export function tooDeep(): ApiError {
  return new ApiError(
    400,
    ERROR_CODES.validation,
    `The request body nests lists and objects more than ${MAX_JSON_DEPTH} levels deep; no request of this service needs that many.`,
    { pointer: "" },
  );
}

/** Replaces the JSON parsers of `app` (both media types) with the depth-checked one. */
export function useDepthCheckedJson(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser(["application/json", MEDIA_TYPE], { parseAs: "string" }, (request, body, done) => {
    // parseAs "string": the body is text.
    const text = body as string;
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) return done(tooDeep(), undefined);
    parse(request, text, done);
  });
}

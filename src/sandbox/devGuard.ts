// Development endpoints (/__sandbox/...) mint tokens and change accounts without a token, so a
// web page on another origin must not reach them: they take only JSON bodies (a browser sends
// JSON cross-origin only after a CORS preflight, which foreign origins fail) and refuse requests
// whose Origin is not the sandbox's own or one of the add-in origins it serves.
import type { FastifyInstance } from "fastify";
import { ERROR_CODES } from "../core/contract/index.js";
import { ApiError } from "./errors.js";

const DEV_PREFIX = "/__sandbox/";
const JSON_TYPES = /^application\/(?:json|vnd\.api\+json)\s*(?:;|$)/i;

export function devEndpointGuard(app: FastifyInstance, allowedOrigins: () => string[]): void {
  app.addHook("onRequest", async (request) => {
    if (!request.url.startsWith(DEV_PREFIX) || request.method === "OPTIONS") return;
    const origin = request.headers.origin;
    if (origin !== undefined && !allowedOrigins().includes(origin)) {
      throw new ApiError(403, ERROR_CODES.forbidden, `Development endpoints answer only the sandbox's own pages and its add-in origins, not ${origin}.`, {
        header: "Origin",
      });
    }
    if (request.method !== "GET" && request.method !== "HEAD" && !JSON_TYPES.test(request.headers["content-type"] ?? "")) {
      throw new ApiError(
        415,
        ERROR_CODES.unsupportedMediaType,
        "Development endpoints take a JSON body: send Content-Type: application/json (an empty input is {}).",
        {
          header: "Content-Type",
        },
      );
    }
  });
}

/** Interfaces that only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, "");
  return h === "localhost" || h === "::1" || /^127(?:\.\d{1,3}){3}$/.test(h);
}

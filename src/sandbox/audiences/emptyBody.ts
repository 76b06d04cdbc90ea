// Optional bodies (a row search's, the match criteria's): an empty body is no body, whatever its
// content type, as the service takes it.
import type { onRequestHookHandler } from "fastify";

export const emptyBodyIsNone: onRequestHookHandler = async (request) => {
  if (request.headers["content-length"] === "0") delete request.headers["content-type"];
};

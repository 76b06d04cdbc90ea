// What the broker writes to its log: method, path without the query string, client address,
// status and time. Never headers, query strings or bodies: those carry codes, verifiers,
// tokens and (upstream) the client secret.
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Writable } from "node:stream";

export interface BrokerLogOptions {
  level?: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
  /** Where log lines go (default stdout). Tests pass a stream to read what was written. */
  stream?: Writable;
}

function pathOnly(url: string): string {
  const q = url.indexOf("?");
  return q === -1 ? url : url.slice(0, q);
}

export function loggerOptions(options: BrokerLogOptions | false) {
  if (options === false) return false;
  return {
    level: options.level ?? "info",
    ...(options.stream ? { stream: options.stream } : {}),
    // Belt and braces: the serializers below never include headers, but a plugin might log them.
    redact: { paths: ["req.headers.authorization", "req.headers.cookie", "headers.authorization", "body"], censor: "[redacted]" },
    serializers: {
      req: (req: FastifyRequest | { method?: string; url?: string; ip?: string }) => ({
        method: req.method,
        url: pathOnly(String(req.url ?? "")),
        remoteAddress: "ip" in req ? req.ip : undefined,
      }),
      res: (res: FastifyReply | { statusCode?: number }) => ({ statusCode: res.statusCode }),
      // Errors are logged by kind only: messages of parse errors can quote the body.
      err: (err: Error & { code?: string; statusCode?: number }) => ({ type: err.name, message: "", stack: "", code: err.code, statusCode: err.statusCode }),
    },
  };
}

// What both sign-in servers' login and consent pages (this one's and the production profile's)
// do around each step: read the interaction in progress, answer with a page, and hand the
// step's result back to oidc-provider.
import type { FastifyReply, FastifyRequest } from "fastify";
import type Provider from "oidc-provider";
import { errorPage } from "./pages.js";

export type InteractionRequest = FastifyRequest<{ Params: { uid: string }; Body: Record<string, string> | undefined }>;
type InteractionResult = Parameters<Provider["interactionResult"]>[2];

const EXPIRED = "This sign-in page has expired. Close this window and start signing in again.";

export function interactionSteps(getProvider: () => Provider, prefix: string) {
  /** Where the steps of interaction `uid` are posted. */
  const base = (uid: string) => `${prefix}/interaction/${encodeURIComponent(uid)}`;

  const html = (reply: FastifyReply, status: number, body: string) =>
    reply
      .code(status)
      .header("content-type", "text/html; charset=utf-8")
      .header("cache-control", "no-store")
      .header("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' *; frame-ancestors 'none'")
      .send(body);

  /** The interaction in progress, or undefined once an error page has answered (expired, or no cookie). */
  const details = async (req: InteractionRequest, reply: FastifyReply) => {
    try {
      const interaction = await getProvider().interactionDetails(req.raw, reply.raw);
      if (interaction.uid !== req.params.uid) throw new Error("interaction mismatch");
      return interaction;
    } catch {
      await html(reply, 400, errorPage("Sign-in expired", EXPIRED));
      return undefined;
    }
  };

  /** Hands the step's result to oidc-provider and follows it to the next step. */
  const finish = async (req: InteractionRequest, reply: FastifyReply, result: InteractionResult, expired = EXPIRED) => {
    let returnTo: string;
    try {
      // Merged with the login step's result: with prompt=login consent both must stay answered.
      returnTo = await getProvider().interactionResult(req.raw, reply.raw, result, { mergeWithLastSubmission: true });
    } catch {
      return html(reply, 400, errorPage("Sign-in expired", expired));
    }
    return reply.code(303).header("cache-control", "no-store").redirect(returnTo, 303);
  };

  return { base, html, details, finish };
}

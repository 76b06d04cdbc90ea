// The login and consent steps oidc-provider hands over to us (/oauth/interaction/:uid).
// Consent grants only the data scopes the user holds; the rest are refused, so a token of
// nocontact@example.com simply lacks api:data:contact.
import type { FastifyInstance, FastifyReply } from "fastify";
import type Provider from "oidc-provider";
import { grantAsked } from "./consent.js";
import { interactionSteps, type InteractionRequest } from "./interactionSteps.js";
import { consentPage, errorPage, loginPage } from "./pages.js";
import { OIDC_PREFIX } from "./provider.js";
import { checkCredentials, findUserById } from "./users.js";

type GetProvider = () => Provider;

const CLIENT_NAME = "Excel add-in";

export async function interactionRoutes(app: FastifyInstance, getProvider: GetProvider): Promise<void> {
  // HTML forms post application/x-www-form-urlencoded.
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  const { base, html, details, finish: finishStep } = interactionSteps(getProvider, OIDC_PREFIX);
  const finish = (req: InteractionRequest, reply: FastifyReply, result: Parameters<typeof finishStep>[2]) =>
    finishStep(req, reply, result, "This sign-in has expired. Close this window and start signing in again.");

  app.get<{ Params: { uid: string } }>(`${OIDC_PREFIX}/interaction/:uid`, async (req, reply) => {
    const interaction = await details(req as InteractionRequest, reply);
    if (!interaction) return reply;
    const uid = interaction.uid;
    if (interaction.prompt.name === "login") {
      return html(reply, 200, loginPage({ action: `${base(uid)}/login`, abortAction: `${base(uid)}/abort`, clientName: CLIENT_NAME }));
    }
    const accountId = interaction.session?.accountId;
    const user = accountId ? findUserById(accountId) : undefined;
    if (!user) {
      return html(reply, 200, loginPage({ action: `${base(uid)}/login`, abortAction: `${base(uid)}/abort`, clientName: CLIENT_NAME }));
    }
    const requested = String(interaction.params.scope ?? "")
      .split(" ")
      .filter(Boolean);
    const dataScopes = requested.filter((s) => s.startsWith("api:"));
    return html(
      reply,
      200,
      consentPage({
        action: `${base(uid)}/confirm`,
        denyAction: `${base(uid)}/abort`,
        clientName: CLIENT_NAME,
        userName: `${user.name} (${user.email})`,
        scopes: requested.filter((s) => !s.startsWith("api:") || user.scopes.includes(s)),
        refusedScopes: dataScopes.filter((s) => !user.scopes.includes(s)),
      }),
    );
  });

  app.post<{ Params: { uid: string }; Body: Record<string, string> | undefined }>(`${OIDC_PREFIX}/interaction/:uid/login`, async (req, reply) => {
    const interaction = await details(req, reply);
    if (!interaction) return reply;
    if (interaction.prompt.name !== "login") {
      return html(reply, 400, errorPage("Sign-in problem", "This step is not expected now. Start signing in again."));
    }
    const email = String(req.body?.email ?? "");
    const user = checkCredentials(email, String(req.body?.password ?? ""));
    if (!user) {
      return html(
        reply,
        401,
        loginPage({
          action: `${base(interaction.uid)}/login`,
          abortAction: `${base(interaction.uid)}/abort`,
          clientName: CLIENT_NAME,
          email,
          error: "The email or password is not right. Check them and try again.",
        }),
      );
    }
    return finish(req, reply, { login: { accountId: user.id } });
  });

  app.post<{ Params: { uid: string }; Body: Record<string, string> | undefined }>(`${OIDC_PREFIX}/interaction/:uid/confirm`, async (req, reply) => {
    const interaction = await details(req, reply);
    if (!interaction) return reply;
    const provider = getProvider();
    const accountId = interaction.session?.accountId;
    const user = accountId ? findUserById(accountId) : undefined;
    if (interaction.prompt.name !== "consent" || !user) {
      return html(reply, 400, errorPage("Sign-in problem", "This step is not expected now. Start signing in again."));
    }
    const clientId = String(interaction.params.client_id);
    const grant = interaction.grantId ? await provider.Grant.find(interaction.grantId) : new provider.Grant({ accountId: user.id, clientId });
    if (!grant) {
      return html(reply, 400, errorPage("Sign-in expired", "This sign-in has expired. Start signing in again."));
    }
    grantAsked(grant, interaction.prompt.details, user.scopes);
    const grantId = await grant.save();
    return finish(req, reply, { consent: interaction.grantId ? {} : { grantId } });
  });

  app.post<{ Params: { uid: string } }>(`${OIDC_PREFIX}/interaction/:uid/abort`, async (req, reply) => {
    const interaction = await details(req as InteractionRequest, reply);
    if (!interaction) return reply;
    // Cancel on the login form is not a refusal of access: the add-in says the two apart.
    return finish(req as InteractionRequest, reply, {
      error: "access_denied",
      error_description: interaction.prompt.name === "login" ? "The user cancelled sign-in." : "The user did not allow access.",
    });
  });
}

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

type Steps = ReturnType<typeof interactionSteps>;
type FinishResult = Parameters<Steps["finish"]>[2];
/** The interaction's steps, with `finish` saying what an expired sign-in means to the user. */
type Step = Omit<Steps, "finish"> & { finish: (req: InteractionRequest, reply: FastifyReply, result: FinishResult) => ReturnType<Steps["finish"]> };
type UidRoute = { Params: { uid: string }; Body: Record<string, string> | undefined };

const UNEXPECTED_STEP = errorPage("Sign-in problem", "This step is not expected now. Start signing in again.");

function loginForm(step: Step, uid: string, extra: { email?: string; error?: string } = {}): string {
  return loginPage({ action: `${step.base(uid)}/login`, abortAction: `${step.base(uid)}/abort`, clientName: CLIENT_NAME, ...extra });
}

/** The step the provider sends the browser to: the login form, or the consent page of a signed-in user. */
function showStep(app: FastifyInstance, step: Step): void {
  app.get<{ Params: { uid: string } }>(`${OIDC_PREFIX}/interaction/:uid`, async (req, reply) => {
    const interaction = await step.details(req as InteractionRequest, reply);
    if (!interaction) return reply;
    const uid = interaction.uid;
    const accountId = interaction.session?.accountId;
    const user = interaction.prompt.name === "login" || !accountId ? undefined : findUserById(accountId);
    if (!user) return step.html(reply, 200, loginForm(step, uid));
    const requested = String(interaction.params.scope ?? "")
      .split(" ")
      .filter(Boolean);
    const dataScopes = requested.filter((s) => s.startsWith("api:"));
    return step.html(
      reply,
      200,
      consentPage({
        action: `${step.base(uid)}/confirm`,
        denyAction: `${step.base(uid)}/abort`,
        clientName: CLIENT_NAME,
        userName: `${user.name} (${user.email})`,
        scopes: requested.filter((s) => !s.startsWith("api:") || user.scopes.includes(s)),
        refusedScopes: dataScopes.filter((s) => !user.scopes.includes(s)),
      }),
    );
  });
}

function loginStep(app: FastifyInstance, step: Step): void {
  app.post<UidRoute>(`${OIDC_PREFIX}/interaction/:uid/login`, async (req, reply) => {
    const interaction = await step.details(req, reply);
    if (!interaction) return reply;
    if (interaction.prompt.name !== "login") return step.html(reply, 400, UNEXPECTED_STEP);
    const email = String(req.body?.email ?? "");
    const user = checkCredentials(email, String(req.body?.password ?? ""));
    if (!user) {
      return step.html(reply, 401, loginForm(step, interaction.uid, { email, error: "The email or password is not right. Check them and try again." }));
    }
    return step.finish(req, reply, { login: { accountId: user.id } });
  });
}

function confirmStep(app: FastifyInstance, step: Step, getProvider: GetProvider): void {
  app.post<UidRoute>(`${OIDC_PREFIX}/interaction/:uid/confirm`, async (req, reply) => {
    const interaction = await step.details(req, reply);
    if (!interaction) return reply;
    const provider = getProvider();
    const accountId = interaction.session?.accountId;
    const user = accountId ? findUserById(accountId) : undefined;
    if (interaction.prompt.name !== "consent" || !user) return step.html(reply, 400, UNEXPECTED_STEP);
    const clientId = String(interaction.params.client_id);
    const grant = interaction.grantId ? await provider.Grant.find(interaction.grantId) : new provider.Grant({ accountId: user.id, clientId });
    if (!grant) {
      return step.html(reply, 400, errorPage("Sign-in expired", "This sign-in has expired. Start signing in again."));
    }
    grantAsked(grant, interaction.prompt.details, user.scopes);
    const grantId = await grant.save();
    return step.finish(req, reply, { consent: interaction.grantId ? {} : { grantId } });
  });
}

function abortStep(app: FastifyInstance, step: Step): void {
  app.post<{ Params: { uid: string } }>(`${OIDC_PREFIX}/interaction/:uid/abort`, async (req, reply) => {
    const interaction = await step.details(req as InteractionRequest, reply);
    if (!interaction) return reply;
    // Cancel on the login form is not a refusal of access: the add-in says the two apart.
    return step.finish(req as InteractionRequest, reply, {
      error: "access_denied",
      error_description: interaction.prompt.name === "login" ? "The user cancelled sign-in." : "The user did not allow access.",
    });
  });
}

export async function interactionRoutes(app: FastifyInstance, getProvider: GetProvider): Promise<void> {
  // HTML forms post application/x-www-form-urlencoded.
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });
  const steps = interactionSteps(getProvider, OIDC_PREFIX);
  const step: Step = {
    ...steps,
    finish: (req, reply, result) => steps.finish(req, reply, result, "This sign-in has expired. Close this window and start signing in again."),
  };
  showStep(app, step);
  loginStep(app, step);
  confirmStep(app, step, getProvider);
  abortStep(app, step);
}

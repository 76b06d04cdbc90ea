// Research and lookalikes in the specification profile, under paths of our own (docs/research.md):
//   GET  /data/v1/research/accounts/{companyId}             a company's briefing   (AI action credit)
//   POST /data/v1/research/accounts/{companyId}/questions   a question on it       (AI action credit)
//   GET  /data/v1/research/contacts/{contactId}             a contact's briefing   (AI action credit)
//   GET  /data/v1/lookalikes/companies                      similar companies      (free)
//   GET  /data/v1/lookalikes/contacts                       similar contacts       (free)
//   GET  /data/v1/recommendations/contacts                  recommended contacts   (free)
// The documents are the copilot API's; the production profile (production.ts) serves these
// routes under its own paths. One account or contact a call. A research call is charged one
// AI action credit once it has succeeded; with none left it is refused before any work.
import { Type } from "@sinclair/typebox";
import type { FastifyInstance } from "fastify";
import {
  AI_ACTION_CREDITS_PER_CALL,
  AI_CREDITS_EXHAUSTED,
  AccountQuestionBody,
  ERROR_CODES,
  RESEARCH_DEFAULT_RESULTS,
  RESEARCH_PATHS,
  readResearchQuery,
  validateResearchId,
  type UseCaseType,
  type ValidationIssue,
} from "../../core/contract/index.js";
import { ApiError } from "../errors.js";
import type { RouteDependencies } from "../routeDependencies.js";
import { answer, type OperationAnswer, type OperationCall } from "../routes/operations.js";
import type { TokenPrincipal } from "../context.js";
import { checkedBy, stringQuery } from "../routes/validation.js";
import { accountBriefingMarkdown, answerQuestion, contactBriefingMarkdown } from "./briefing.js";
import { createDossierReader } from "./dossier.js";
import { createResearchFacts, type ContactFacts } from "./facts.js";
import { companyLookalikes, contactLookalikes, recommendedContacts } from "./similarity.js";

type QueryKind = "companyLookalikes" | "contactLookalikes" | "contactRecommendations";
const KNOWN_PARAMS: Record<QueryKind, readonly string[]> = {
  companyLookalikes: [
    "filter[companyId]",
    "filter[companyName]",
    "filter[sameCountry]",
    "filter[sameIndustry]",
    "filter[sameRevenueRange]",
    "filter[sameEmployeeRange]",
    "page[size]",
  ],
  contactLookalikes: ["filter[referencePersonId]", "filter[targetCompanyId]", "page[size]"],
  contactRecommendations: ["filter[useCaseType]", "filter[ziCompanyId]", "page[size]"],
};

/** A query schema that reads the wire parameters with the contract's reader; unknown parameters are refused. */
function queryCheck(kind: QueryKind) {
  return checkedBy(Type.Object({}), (raw) => {
    const params = stringQuery(raw);
    const unknown: ValidationIssue[] = Object.keys(params)
      .filter((name) => !KNOWN_PARAMS[kind].includes(name))
      .map((name) => ({
        parameter: name,
        label: name,
        rule: "unknown",
        code: ERROR_CODES.validation,
        message: `${name} is not a parameter of this operation.`,
      }));
    const { query, issues } = readResearchQuery(kind, params);
    return { issues: [...unknown, ...issues], value: query };
  });
}

const idParams = (name: string, label: string) =>
  checkedBy(Type.Object({}), (raw) => {
    const id = String((raw as Record<string, unknown>)[name] ?? "");
    return { issues: validateResearchId(id, label).map((i) => ({ ...i, parameter: name })) };
  });

const notFound = (what: string, id: string | number, parameter: string) =>
  new ApiError(404, ERROR_CODES.notFound, `There is no ${what} with id ${id}.`, { parameter });

const contactBrief = (c: ContactFacts) => `${c.jobTitle || "Contact"} (${[c.managementLevel, c.department].filter(Boolean).join(", ")}) at ${c.companyName}`;

export function researchRoutes(app: FastifyInstance, d: RouteDependencies): void {
  const facts = createResearchFacts(d.ctx.db);
  const dossierOf = createDossierReader(d.ctx.db, d.ctx.options.seed, facts);
  const paths = RESEARCH_PATHS.specification;

  /** Runs a research call: refused with no credit left, charged once it has an answer. */
  const research = (principal: TokenPrincipal, make: () => unknown): OperationAnswer => {
    const account = principal.account;
    if (d.aiCredits.balance(account).remaining < AI_ACTION_CREDITS_PER_CALL) throw new ApiError(400, ERROR_CODES.creditLimit, AI_CREDITS_EXHAUSTED);
    const body = make();
    if (!d.aiCredits.spend(account, AI_ACTION_CREDITS_PER_CALL)) throw new ApiError(400, ERROR_CODES.creditLimit, AI_CREDITS_EXHAUSTED);
    return answer(body);
  };
  const dossier = (companyId: string) => {
    const found = dossierOf(Number(companyId), d.ctx.clock.now());
    if (!found) throw notFound("company", companyId, "companyId");
    return found;
  };

  const accountParams = { params: idParams("companyId", "Company id") };
  d.operations.serve<unknown, unknown, { companyId: string }>(app, {
    method: "GET",
    url: decodeURIComponent(paths.accountBriefing(":companyId")),
    operation: "accountBriefing",
    schema: accountParams,
    handle({ principal, params: { companyId } }) {
      const d0 = dossier(companyId);
      return research(principal, () => ({ data: { id: companyId, type: "AccountSummary", attributes: { markdown: accountBriefingMarkdown(d0) } } }));
    },
  });

  d.operations.serve<AccountQuestionBody, unknown, { companyId: string }>(app, {
    method: "POST",
    url: decodeURIComponent(paths.askAccount(":companyId")),
    operation: "askAccount",
    schema: { ...accountParams, body: AccountQuestionBody },
    handle({ principal, params: { companyId }, body }) {
      const d0 = dossier(companyId);
      const question = body.data.attributes.question;
      return research(principal, () => ({ data: { id: companyId, type: "AccountSummaryQuestion", attributes: { answer: answerQuestion(d0, question) } } }));
    },
  });

  d.operations.serve<unknown, unknown, { contactId: string }>(app, {
    method: "GET",
    url: decodeURIComponent(paths.contactBriefing(":contactId")),
    operation: "contactBriefing",
    schema: { params: idParams("contactId", "Contact id") },
    handle({ principal, params: { contactId } }) {
      const contact = facts.contact(Number(contactId));
      if (!contact) throw notFound("contact", contactId, "contactId");
      const company = dossierOf(contact.companyId, d.ctx.clock.now());
      return research(principal, () => ({
        data: { id: contactId, type: "ContactSummary", attributes: { markdown: contactBriefingMarkdown(contact, company) } },
      }));
    },
  });

  similarityRoutes(app, d, facts);
}

type Facts = ReturnType<typeof createResearchFacts>;
type CompanyQuery = {
  companyId?: string;
  companyName?: string;
  size?: number;
  sameCountry?: boolean;
  sameIndustry?: boolean;
  sameRevenueRange?: boolean;
  sameEmployeeRange?: boolean;
};

/** Companies like a reference company (by id or name). */
const companyLookalikeAnswer =
  (facts: Facts) =>
  ({ query: q }: OperationCall<unknown, CompanyQuery, unknown>): OperationAnswer => {
    const id = q.companyId !== undefined ? Number(q.companyId) : facts.companyNamed(q.companyName ?? "");
    if (id === undefined)
      throw new ApiError(404, ERROR_CODES.notFound, `No company is named like "${q.companyName ?? ""}".`, { parameter: "filter[companyName]" });
    const reference = facts.allCompanies().find((c) => c.id === id);
    if (!reference) throw notFound("company", id, "filter[companyId]");
    const found = companyLookalikes(reference, facts.allCompanies(), q, q.size ?? RESEARCH_DEFAULT_RESULTS);
    return answer({
      data: found.map(({ item: c, score, rank }) => ({
        id: String(c.id),
        type: "CompanyLookalike",
        attributes: {
          companyName: c.name,
          score,
          rank,
          industry: c.industry,
          revenueRange: c.revenueRange,
          employeeRange: c.employeeRange,
          country: c.country,
        },
      })),
    });
  };

/** Contacts like a reference contact, at one company or any. */
const contactLookalikeAnswer =
  (facts: Facts) =>
  ({ query: q }: OperationCall<unknown, { referencePersonId: string; targetCompanyId?: string; size?: number }, unknown>): OperationAnswer => {
    const reference = facts.contact(Number(q.referencePersonId));
    if (!reference) throw notFound("contact", q.referencePersonId, "filter[referencePersonId]");
    if (q.targetCompanyId !== undefined && !facts.company(Number(q.targetCompanyId))) throw notFound("company", q.targetCompanyId, "filter[targetCompanyId]");
    const candidates = q.targetCompanyId !== undefined ? facts.contactsOf(Number(q.targetCompanyId)) : facts.allContacts();
    const meta = { referencePersonId: reference.id, referencePersonBrief: contactBrief(reference) };
    return answer({
      data: contactLookalikes(reference, candidates, q.size ?? RESEARCH_DEFAULT_RESULTS).map(({ item: c, score, rank }) => ({
        id: String(c.id),
        type: "ContactLookalike",
        attributes: { rank, score, lookalikePersonBrief: contactBrief(c) },
        meta,
      })),
    });
  };

/** A company's contacts recommended for a use case. */
const recommendationAnswer =
  (facts: Facts) =>
  ({ query: q }: OperationCall<unknown, { companyId: string; useCase: UseCaseType; size?: number }, unknown>): OperationAnswer => {
    if (!facts.company(Number(q.companyId))) throw notFound("company", q.companyId, "filter[ziCompanyId]");
    const found = recommendedContacts(facts.contactsOf(Number(q.companyId)), q.useCase, q.size ?? RESEARCH_DEFAULT_RESULTS);
    return answer({
      data: found.map(({ contact: c, score, reRankingScore, rank }) => ({
        id: String(c.id),
        type: "ContactRecommendation",
        attributes: { rank, score, reRankingScore, recommendedPersonBrief: contactBrief(c) },
        meta: { sourceType: "COLD_START_CONTACTS" },
      })),
    });
  };

/** Lookalikes and recommendations: free, one reference company or contact a call. */
function similarityRoutes(app: FastifyInstance, d: RouteDependencies, facts: Facts): void {
  const paths = RESEARCH_PATHS.specification;
  const free = (operation: QueryKind) => ({ method: "GET" as const, operation, schema: { querystring: queryCheck(operation) } });
  d.operations.serve(app, { ...free("companyLookalikes"), url: paths.companyLookalikes(), handle: companyLookalikeAnswer(facts) });
  d.operations.serve(app, { ...free("contactLookalikes"), url: paths.contactLookalikes(), handle: contactLookalikeAnswer(facts) });
  d.operations.serve(app, { ...free("contactRecommendations"), url: paths.contactRecommendations(), handle: recommendationAnswer(facts) });
}

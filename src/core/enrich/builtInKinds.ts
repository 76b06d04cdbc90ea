// The kinds the add-in ships, each one declaration (kindDeclaration.ts): companies and contacts
// (the contract's records), the signals of a company (docs/signals.md), its hashtags and its
// corporate family (core/accounts/hierarchyKind.ts, docs/accounts.md). A new
// kind is one more entry here plus the sandbox's data for it.
import {
  COMPANY_OUTPUT_FIELDS,
  CONTACT_OUTPUT_FIELDS,
  HASHTAG_OUTPUT_FIELDS,
  HASHTAGS_PATH,
  HashtagsDocument,
  hashtagBody,
  LIMITS,
  readHashtags,
  SIGNAL_CREDIT_KINDS,
  SIGNAL_OUTPUT_FIELDS,
  SIGNAL_RECORD_KINDS,
  type MatchCompanyInput,
  type MatchPersonInput,
  type RecordKind,
  type SignalRecordKind,
} from "../contract/index.js";
import { hierarchyKind } from "../accounts/hierarchyKind.js";
import { fetchSignalRecords, SIGNAL_MAX_INPUTS, type SignalClient } from "../signals/index.js";
import { callOptions, COMPANY_KEYED, companyIdOf, recordsByCompany, type EnrichClient, type EnrichmentKind } from "./kindDeclaration.js";

/** Contact results carry company fields nested under `company`; cells ask for them flat. */
function flattenContact(attributes: Record<string, unknown>): Record<string, unknown> {
  const company = attributes.company;
  if (typeof company !== "object" || company === null) return attributes;
  const nested = company as Record<string, unknown>;
  return { ...attributes, companyId: attributes.companyId ?? nested.id, companyName: attributes.companyName ?? nested.name };
}

/** A record kind of the contract (companies, contacts): up to 25 inputs a request, by id or by match criteria. */
function recordKind(kind: RecordKind): EnrichmentKind {
  const company = kind === "company";
  return {
    kind,
    label: company ? "Companies" : "Contacts",
    outputFields: company ? COMPANY_OUTPUT_FIELDS : CONTACT_OUTPUT_FIELDS,
    // Fields a search table does not already hold (its name, website, place, revenue and employees).
    defaultFields: company
      ? ["employeeRange", "primaryIndustry", "phone", "foundedYear", "description"]
      : ["email", "phone", "managementLevel", "jobFunction", "city"],
    matchDefaultFields: company ? ["name", "website", "country"] : ["firstName", "lastName", "jobTitle", "companyName"],
    minimalFields: ["id"],
    companions: true,
    maxInputs: LIMITS.maxEnrichInputs,
    spends: true,
    ...(company ? COMPANY_KEYED : { noun: "contact", idLabel: "Person id", matchNouns: ["person", "people"] as const, matchKind: "contact" as const }),
    idInput: (id) => (company ? { companyId: id } : { personId: id }),
    send: (client, seal, options) =>
      client.enrichBatch(kind, { seal: () => seal() as { inputs: Array<MatchCompanyInput | MatchPersonInput>; outputFields: string[] } }, options),
    cached: (attributes) => (company ? attributes : flattenContact(attributes)),
  };
}

const SIGNAL_LABELS: Record<SignalRecordKind, string> = { intent: "Intent scores", scoops: "Scoops", news: "News", technologies: "Technologies" };
/** A signal column is its few readable fields (intent asks topics, chosen in the Signals part). */
const SIGNAL_DEFAULT_FIELDS: Record<SignalRecordKind, readonly string[]> = {
  intent: [],
  scoops: ["latestScoop", "latestScoopDate", "scoops90"],
  news: ["latestNews", "latestNewsDate"],
  technologies: ["technologyProducts"],
};

/**
 * A signal of a company (docs/signals.md): keyed by the company id, fields as
 * core/signals/signalRecords.ts defines them; a request is the cheapest plan for its companies.
 * Intent, scoops and news spend a bulk-data credit per company new to the kind (the daily cap
 * counts them like records); technologies are free.
 */
function signalKind(kind: SignalRecordKind): EnrichmentKind {
  return {
    kind,
    label: SIGNAL_LABELS[kind],
    outputFields: SIGNAL_OUTPUT_FIELDS[kind],
    defaultFields: SIGNAL_DEFAULT_FIELDS[kind],
    matchDefaultFields: SIGNAL_DEFAULT_FIELDS[kind],
    ...(kind === "intent" ? { fieldsAsWritten: true } : {}),
    minimalFields: Object.keys(SIGNAL_OUTPUT_FIELDS[kind]),
    companions: false,
    maxInputs: SIGNAL_MAX_INPUTS[kind],
    spends: (SIGNAL_CREDIT_KINDS as readonly string[]).includes(kind),
    ...COMPANY_KEYED,
    async send(client, seal, options) {
      const { inputs, outputFields } = seal();
      const records = await fetchSignalRecords(signalClient(client), kind, inputs.map(companyIdOf), outputFields, {
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.priority ? { priority: options.priority } : {}),
        ...(options.now ? { clock: { now: options.now } } : {}),
      });
      return recordsByCompany(inputs, (id) => records.get(id) ?? {});
    },
    cached: (attributes) => attributes,
  };
}

function signalClient(client: EnrichClient): SignalClient {
  if (!client.enrichIntent || !client.searchIntent || !client.enrichScoops || !client.enrichNews || !client.enrichTechnologies)
    throw new Error("This client has no signal operations.");
  return client as SignalClient;
}

/** The service's hashtags of a company: one company a request, no credit; the cells read the labels. */
const hashtagsKind: EnrichmentKind = {
  kind: "hashtags",
  label: "Hashtags",
  outputFields: HASHTAG_OUTPUT_FIELDS,
  defaultFields: ["hashtagLabels"],
  matchDefaultFields: ["hashtagLabels"],
  minimalFields: Object.keys(HASHTAG_OUTPUT_FIELDS),
  companions: false,
  maxInputs: 1,
  spends: false,
  ...COMPANY_KEYED,
  async send(client, seal, options) {
    if (!client.postDocument) throw new Error("This client cannot post documents.");
    const { inputs } = seal();
    const request = callOptions(options);
    const answers = await Promise.all(
      inputs.map(async (input) =>
        readHashtags(await client.postDocument!({ path: HASHTAGS_PATH, body: hashtagBody(companyIdOf(input)), document: HashtagsDocument }, request)),
      ),
    );
    return recordsByCompany(inputs, (id) => {
      const items = answers[inputs.findIndex((input) => companyIdOf(input) === id)] ?? [];
      return {
        hashtags: items,
        hashtagLabels: items.map((h) => h.label).join(", "),
        hashtagGroups: [...new Set(items.map((h) => h.group).filter(Boolean))].join(", "),
      };
    });
  },
  cached: (attributes) => attributes,
};

/** Every built-in kind by name. */
export const BUILT_IN_KINDS = {
  company: recordKind("company"),
  contact: recordKind("contact"),
  ...(Object.fromEntries(SIGNAL_RECORD_KINDS.map((kind) => [kind, signalKind(kind)])) as Record<SignalRecordKind, EnrichmentKind>),
  hashtags: hashtagsKind,
  hierarchy: hierarchyKind,
} as const;

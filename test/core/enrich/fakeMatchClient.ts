// A scripted service for matcher tests: it knows a few companies by domain and name, answers
// one record per input in input order with only the requested fields, answers a name several
// companies share with NO_MATCH and an "ambiguous" warning, and enriches by id as well.
import type { EnrichRecord, OpenEnrichBatch, ServiceClient } from "../../../src/core/api/types.js";
import type { MatchCompanyInput, MatchPersonInput, RecordKind } from "../../../src/core/contract/index.js";

export interface MatchCall {
  kind: "company" | "contact";
  inputs: Array<MatchCompanyInput | MatchPersonInput>;
  outputFields: string[];
}

export interface KnownCompany {
  id: number;
  domain: string;
  name: string;
  country: string;
}

export const KNOWN: KnownCompany[] = [
  { id: 101, domain: "acme.com", name: "acme", country: "United States" },
  { id: 102, domain: "contoso.com", name: "contoso", country: "United States" },
  { id: 201, domain: "northwind.de", name: "northwind", country: "Germany" },
  { id: 202, domain: "northwind.co.uk", name: "northwind", country: "United Kingdom" },
];

function attributesOf(company: KnownCompany, fields: string[]): Record<string, unknown> {
  const all: Record<string, unknown> = {
    id: company.id,
    name: company.name.toUpperCase(),
    website: `https://www.${company.domain}`,
    country: company.country,
    revenue: company.id * 10,
  };
  const out: Record<string, unknown> = {};
  for (const field of fields) if (all[field] !== undefined) out[field] = all[field];
  return out;
}

export class FakeMatchClient implements Pick<ServiceClient, "enrichCompanies" | "enrichContacts" | "enrichBatch"> {
  readonly calls: MatchCall[] = [];
  /** Extra generated companies: "c<n>.example" is company 10000 + n. */
  generated = true;
  failWith: unknown;

  find(input: MatchCompanyInput): KnownCompany[] {
    if (input.companyId !== undefined) return KNOWN.filter((c) => c.id === input.companyId).concat(this.generatedById(input.companyId));
    if (input.companyWebsite !== undefined) {
      const generated = /^c(\d+)\.example$/.exec(input.companyWebsite);
      if (generated && this.generated) return this.generatedById(10000 + Number(generated[1]));
      return KNOWN.filter((c) => c.domain === input.companyWebsite);
    }
    const name = input.companyName?.toLowerCase().trim();
    return KNOWN.filter((c) => c.name === name && (input.companyCountry === undefined || c.country.toLowerCase() === input.companyCountry.toLowerCase()));
  }

  private generatedById(id: number): KnownCompany[] {
    return id > 10000 ? [{ id, domain: `c${id - 10000}.example`, name: `c${id - 10000}`, country: "France" }] : [];
  }

  async enrichCompanies(inputs: MatchCompanyInput[], outputFields: string[]): Promise<EnrichRecord<MatchCompanyInput>[]> {
    this.calls.push({ kind: "company", inputs: [...inputs], outputFields: [...outputFields] });
    if (inputs.length > 25) throw new Error("more than 25 inputs in one request");
    await Promise.resolve();
    if (this.failWith !== undefined) throw this.failWith;
    return inputs.map((input) => {
      const found = this.find(input);
      const company = found[0];
      if (found.length === 1 && company) {
        const attributes = attributesOf(company, outputFields);
        return {
          input,
          matchStatus: "FULL_MATCH",
          outcome: "matched",
          id: String(company.id),
          attributes,
          item: { id: String(company.id), type: "Company", attributes, meta: { matchStatus: "FULL_MATCH" } },
        };
      }
      const warnings = found.length > 1 ? ["AMBIGUOUS_INPUT: 2 companies fit this input"] : undefined;
      return {
        input,
        matchStatus: "NO_MATCH",
        outcome: "noMatch",
        attributes: {},
        item: { id: "0", type: "NoMatch", meta: { matchStatus: "NO_MATCH", ...(warnings ? { warnings } : {}) } },
      };
    });
  }

  /** The pipeline's request: the batch is sealed when it leaves, then answered like the list forms. */
  async enrichBatch(kind: RecordKind, batch: OpenEnrichBatch): Promise<EnrichRecord<MatchCompanyInput | MatchPersonInput>[]> {
    const { inputs, outputFields } = batch.seal();
    return kind === "company"
      ? this.enrichCompanies(inputs as MatchCompanyInput[], outputFields)
      : this.enrichContacts(inputs as MatchPersonInput[], outputFields);
  }

  async enrichContacts(inputs: MatchPersonInput[], outputFields: string[]): Promise<EnrichRecord<MatchPersonInput>[]> {
    this.calls.push({ kind: "contact", inputs: [...inputs], outputFields: [...outputFields] });
    await Promise.resolve();
    return inputs.map((input) => {
      const id = input.emailAddress === "jane@acme.com" ? 7 : input.personId;
      if (id === undefined) return { input, matchStatus: "NO_MATCH", outcome: "noMatch", attributes: {} };
      const attributes: Record<string, unknown> = {};
      if (outputFields.includes("firstName")) attributes.firstName = "Jane";
      if (outputFields.includes("companyName")) attributes.company = { id: 101, name: "ACME" };
      return { input, matchStatus: "FULL_MATCH", outcome: "matched", id: String(id), attributes };
    });
  }
}

// A scripted stand-in for the service client's enrichment methods, for engine unit tests.
// It answers like the service: one record per input, in input order, only the requested fields.
// enrichBatch seals the batch when called: the request leaves at once (no rate limiter here).
import type { EnrichOutcome, EnrichRecord, OpenEnrichBatch, ServiceClient } from "../../../src/core/api/types.js";
import type { MatchCompanyInput, MatchPersonInput } from "../../../src/core/contract/index.js";

export interface RecordedCall {
  kind: "company" | "contact";
  ids: number[];
  outputFields: string[];
}

export type Behaviour = (kind: "company" | "contact", id: number) => { status: string; outcome: EnrichOutcome } | undefined;

export function companyAttributes(id: number): Record<string, unknown> {
  return {
    id: String(id),
    name: `Company ${id}`,
    revenue: id * 10,
    certified: id % 2 === 0,
    country: id % 3 === 0 ? "Germany" : "United States",
    website: `https://www.company${id}.example`,
    socialMediaUrls: [
      { type: "LINKED_IN", url: `https://linkedin.example/c${id}`, followerCount: "1200" },
      { type: "TWITTER", url: `https://twitter.example/c${id}` },
    ],
    employeeRange: "100 - 249",
    // ticker left out: the service omits fields without a value
  };
}

export function contactAttributes(id: number): Record<string, unknown> {
  return { firstName: `First${id}`, lastName: `Last${id}`, jobTitle: "Buyer", company: { id: id + 1, name: `Company ${id + 1}` } };
}

export class FakeEnrichClient implements Pick<ServiceClient, "enrichCompanies" | "enrichContacts" | "enrichBatch"> {
  readonly calls: RecordedCall[] = [];
  behaviour: Behaviour = () => undefined;
  /** When set, every request fails with this error. */
  failWith: unknown;
  /** Held requests resolve only when release() is called. */
  private gate: Promise<void> | undefined;
  private openGate: (() => void) | undefined;

  hold(): void {
    this.gate = new Promise((resolve) => (this.openGate = resolve));
  }
  release(): void {
    this.openGate?.();
    this.gate = undefined;
  }

  private readonly waiters: { count: number; resolve: () => void }[] = [];
  /** Resolves once `count` requests have reached the client (the event, not a wait on time). */
  requested(count: number): Promise<void> {
    if (this.calls.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  /** The priority each request was sent with (undefined: interactive). */
  readonly priorities: Array<string | undefined> = [];

  async enrichBatch(
    kind: "company" | "contact",
    batch: OpenEnrichBatch,
    options?: { priority?: string },
  ): Promise<EnrichRecord<MatchCompanyInput | MatchPersonInput>[]> {
    this.priorities.push(options?.priority);
    const { inputs, outputFields } = batch.seal();
    return kind === "company"
      ? this.enrichCompanies(inputs as MatchCompanyInput[], outputFields)
      : this.enrichContacts(inputs as MatchPersonInput[], outputFields);
  }

  enrichCompanies(inputs: MatchCompanyInput[], outputFields: string[]): Promise<EnrichRecord<MatchCompanyInput>[]> {
    return this.answer(
      "company",
      inputs,
      inputs.map((i) => i.companyId ?? 0),
      outputFields,
    );
  }

  enrichContacts(inputs: MatchPersonInput[], outputFields: string[]): Promise<EnrichRecord<MatchPersonInput>[]> {
    return this.answer(
      "contact",
      inputs,
      inputs.map((i) => i.personId ?? 0),
      outputFields,
    );
  }

  private async answer<T>(kind: "company" | "contact", inputs: T[], ids: number[], outputFields: string[]): Promise<EnrichRecord<T>[]> {
    this.calls.push({ kind, ids: [...ids], outputFields: [...outputFields] });
    for (const waiter of this.waiters.filter((w) => this.calls.length >= w.count)) {
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
    if (ids.length > 25) throw new Error("more than 25 ids in one request");
    await this.gate;
    if (this.failWith !== undefined) throw this.failWith;
    return inputs.map((input, index) => {
      const id = ids[index]!;
      const scripted = this.behaviour(kind, id);
      if (scripted) return { input, matchStatus: scripted.status, outcome: scripted.outcome, attributes: {} };
      const all = kind === "company" ? companyAttributes(id) : contactAttributes(id);
      const attributes: Record<string, unknown> = {};
      for (const field of outputFields) if (all[field] !== undefined) attributes[field] = all[field];
      if (kind === "contact" && (outputFields.includes("companyId") || outputFields.includes("companyName"))) attributes.company = all.company;
      return { input, matchStatus: "FULL_MATCH", outcome: "matched" as const, id: String(id), attributes };
    });
  }
}

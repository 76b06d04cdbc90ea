// A research client faked through its public interface (core/research's port): deterministic
// answers, every call counted, an AI action balance spent one per successful research call.
import { serviceError } from "../../../src/core/api/index.js";
import type { CompanyLookalike, LookalikeQuery, RecommendedContact, ResearchCallOptions, ResearchClient, UseCase } from "../../../src/core/research/index.js";

export class FakeResearchClient implements ResearchClient {
  readonly calls = { accountBriefing: 0, askAccount: 0, companyLookalikes: 0, contactRecommendations: 0, usage: 0 };
  readonly aiActions = { limit: 250, used: 10, remaining: 240 };
  /** Companies whose briefing the service refuses (a 4xx: nothing charged). */
  readonly refused = new Set<string>();
  /** Set to hold every call until released (cancel tests). */
  gate: Promise<void> | undefined;

  private async enter(options?: ResearchCallOptions): Promise<void> {
    options?.signal?.throwIfAborted();
    if (this.gate) await this.gate;
    options?.signal?.throwIfAborted();
  }

  private charge(): void {
    this.aiActions.used++;
    this.aiActions.remaining--;
  }

  async accountBriefing(companyId: string, options?: ResearchCallOptions) {
    this.calls.accountBriefing++;
    await this.enter(options);
    if (this.refused.has(companyId)) throw serviceError("validation", { status: 400, message: `No company ${companyId}` });
    this.charge();
    return { companyId, markdown: `# Company ${companyId}\n\n- Industry: Software\n- [Website](https://example.com/${companyId})` };
  }

  async askAccount(companyId: string, question: string, options?: ResearchCallOptions) {
    this.calls.askAccount++;
    await this.enter(options);
    this.charge();
    return { companyId, question, answer: `Company ${companyId} answers: ${question}` };
  }

  /** Seed s: the companies s±1 … s±size/2 (never s), score 1 − distance/100, ranked by score. */
  async companyLookalikes(query: LookalikeQuery, options?: ResearchCallOptions): Promise<CompanyLookalike[]> {
    this.calls.companyLookalikes++;
    await this.enter(options);
    const seed = Number(query.companyId ?? (query.companyName ?? "").replace(/\D/g, ""));
    const size = query.size ?? 25;
    const out: CompanyLookalike[] = [];
    for (let d = 1; out.length < size; d++) {
      for (const id of [seed + d, seed - d]) {
        if (id < 1 || out.length >= size) continue;
        out.push({
          companyId: String(id),
          companyName: `Company ${id}`,
          score: 1 - d / 100,
          rank: out.length + 1,
          industry: "Software",
          revenueRange: "$10M-$50M",
          employeeRange: "50-100",
          country: "United States",
        });
      }
    }
    return out;
  }

  async contactRecommendations(query: { companyId: string; useCase: UseCase; size?: number }, options?: ResearchCallOptions): Promise<RecommendedContact[]> {
    this.calls.contactRecommendations++;
    await this.enter(options);
    const n = query.size ?? 3;
    // Answered out of rank order: the caller orders them.
    return Array.from({ length: n }, (_, i) => ({
      contactId: `${query.companyId}0${n - i}`,
      companyId: query.companyId,
      rank: n - i,
      score: 1 - (n - i) / 10,
      reRankingScore: -1,
      brief: `${query.useCase} contact ${n - i}`,
    }));
  }

  async usage() {
    this.calls.usage++;
    return { entries: [], aiActions: { ...this.aiActions } };
  }
}

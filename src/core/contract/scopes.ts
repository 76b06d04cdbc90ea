// The data scopes: a module with no imports, so the sign-in screen may name them without loading the contract.
/** Scopes (docs/service.md, "Sign-in, scopes and roles"). */
export const SCOPES = {
  company: "api:data:company",
  contact: "api:data:contact",
  lookup: "api:data:lookup",
  intent: "api:data:intent",
  news: "api:data:news",
  scoops: "api:data:scoops",
  /** Research on an account (the copilot API's account summary and its questions; ours: a contact's too). */
  accountSummary: "api:account-summary:read",
  /** Lookalike companies and contacts, recommended contacts (the copilot API's recommendations). */
  recommendations: "api:recommendations:read",
} as const;

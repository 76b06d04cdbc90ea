// The twin's corporate-hierarchy and org-chart operations (src/sandbox/accounts/handlers.ts) as a
// Transport, called in process: the client speaks to the twin's own answers and errors while
// their routes are not served yet. It counts requests by path and answers an error the way the
// sandbox's error handler writes it (the service's error document).
import type { Transport } from "../../src/core/api/index.js";
import { CORPORATE_HIERARCHY_PATH, ORG_CHART_PATH } from "../../src/core/contract/index.js";
import { accountOperations, enrichCorporateHierarchy, enrichOrgChart } from "../../src/sandbox/accounts/handlers.js";
import { createAccountStore } from "../../src/sandbox/credits.js";
import { ApiError, ValidationFailure } from "../../src/sandbox/errors.js";
import { recordMatchers } from "../../src/sandbox/routes/enrich.js";
import { openDatabase } from "../../src/sandbox/store/database.js";

const json = (status: number, body: unknown) => {
  const text = JSON.stringify(body);
  return { status, headers: { get: (name: string) => (name.toLowerCase() === "content-type" ? "application/json" : null) }, text: async () => text };
};

function errorAnswer(error: unknown) {
  if (error instanceof ValidationFailure)
    return json(400, { errors: error.issues.map((i) => ({ status: "400", code: i.code, title: "Validation error", detail: i.message })) });
  if (error instanceof ApiError)
    return json(error.status, { errors: [{ status: String(error.status), code: error.code, title: error.message, detail: error.message }] });
  throw error;
}

/** A twin of `companies` and `contacts` (seed 1) with an account of `credits`, and a transport to its two operations. */
export function accountsTwin(options: { companies: number; contacts: number; credits?: number; account?: string }) {
  const { db } = openDatabase(undefined, { seed: 1, companies: options.companies, contacts: options.contacts });
  const credits = createAccountStore(db);
  const account = options.account ?? "twin";
  credits.resetAccount(account, options.credits ?? 1_000_000);
  const matchers = recordMatchers(db);
  const ops = accountOperations({ db, credits }, (input) => matchers.company(input));
  const requests = new Map<string, number>();
  const transport: Transport = async (url, init) => {
    const parsed = new URL(url);
    requests.set(parsed.pathname, (requests.get(parsed.pathname) ?? 0) + 1);
    const body: unknown = init.body === undefined ? undefined : JSON.parse(init.body);
    try {
      if (parsed.pathname === CORPORATE_HIERARCHY_PATH) return json(200, enrichCorporateHierarchy(body, account, ops));
      if (parsed.pathname === ORG_CHART_PATH) return json(200, enrichOrgChart(body, Object.fromEntries(parsed.searchParams), account, ops));
    } catch (error) {
      return errorAnswer(error);
    }
    return json(404, { errors: [{ status: "404", code: "ZI9998", title: "Not found", detail: `No ${init.method} ${parsed.pathname} here` }] });
  };
  return { db, credits, account, ops, transport, requests, count: (path: string) => requests.get(path) ?? 0 };
}

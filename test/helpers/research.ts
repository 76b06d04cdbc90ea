// What the research tests of both profiles share: seeded companies that have contacts (so
// briefings, lookalikes and recommendations have something to say) and a refusal read as the
// client's service error.
import assert from "node:assert/strict";
import { isServiceError, type ServiceError } from "../../src/core/api/index.js";
import type { TestSandbox } from "./sandbox.js";

/** The ids of `n` seeded companies with at least three contacts, in id order, after `offset` of them. */
export function companiesWithContacts(sandbox: TestSandbox, n: number, offset = 0): string[] {
  const rows = sandbox.ctx.db
    .prepare("SELECT company_id AS id FROM contacts GROUP BY company_id HAVING COUNT(*) >= 3 ORDER BY company_id LIMIT ? OFFSET ?")
    .all(n, offset) as { id: number }[];
  return rows.map((row) => String(row.id));
}

/** The service error a call is refused with (fails the test when it is not refused, or not by the service). */
export async function refusal(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(isServiceError(error), String(error));
    return error;
  }
  assert.fail("expected a refusal");
}

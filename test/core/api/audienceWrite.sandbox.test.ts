// The client's audience writes over real HTTP against the sandbox's specification profile: an
// audience written, enriched and read back by row id (audienceWriteFlow.ts).
import assert from "node:assert/strict";
import { inspect } from "node:util";
import { describe, it } from "node:test";
import { errorText, fetchTransport, ServiceError } from "../../../src/core/api/index.js";
import { clientTimeOn, manualClock, useSandbox } from "../../helpers/sandbox.js";
import { writeEnrichReadBack } from "./audienceWriteFlow.js";
import { sandboxClient } from "./sandboxClient.js";

describe("client audience writes against the sandbox (specification profile)", () => {
  const clock = manualClock();
  const sandbox = useSandbox({ clock, jobRowsPerSecond: 5000 });

  it("writes an audience, enriches it and reads the enriched rows back by their ids", async () => {
    const token = await sandbox.token();
    await writeEnrichReadBack(
      sandboxClient(sandbox.url, () => token, clientTimeOn(clock)),
      clock,
    );
  });

  it("never duplicates rows when the answer to a request that created them is lost: they are found by the key column and sent again by id", async () => {
    const token = await sandbox.token();
    const real = fetchTransport();
    let loseNext = false;
    const client = sandboxClient(sandbox.url, () => token, {
      ...clientTimeOn(clock),
      // The service writes the rows, then the connection drops before the answer arrives.
      fetch: async (url, init) => {
        const response = await real(url, init);
        if (loseNext && url.endsWith("/rows/actions/bulk/upsert")) {
          loseNext = false;
          await response.text();
          throw new TypeError("fetch failed: connection reset");
        }
        return response;
      },
    });
    const audience = await client.createAudience({
      name: "Retry",
      kind: "CONTACT",
      columns: [
        { name: "Email", dataType: "EMAIL" },
        { name: "Key", dataType: "TEXT" },
      ],
    });
    const [email, key] = audience.columns.map((c) => c.columnId) as [string, string];
    const sheet = Array.from({ length: 30 }, (_, i) => ({ key: `row-${i}`, email: `p${i}@example.com` }));
    loseNext = true;
    const lost = await client
      .upsertAudienceRows(
        audience.audienceId,
        sheet.map((r) => ({ cells: { [email]: r.email, [key]: r.key } })),
      )
      .catch((e: unknown) => e);
    assert.ok(lost instanceof ServiceError && lost.kind === "network", String(lost));
    const found = await client.findAudienceRowsByKey(
      audience.audienceId,
      key,
      sheet.map((r) => r.key),
    );
    assert.equal(found.size, 30, "the lost request's rows were written once, and are found by their key");
    const again = await client.upsertAudienceRows(
      audience.audienceId,
      sheet.map((r) => ({ rowId: found.get(r.key)![0]!, cells: { [email]: r.email.toUpperCase() } })),
    );
    assert.ok(again.every((r) => !r.created));
    assert.equal((await client.getAudience(audience.audienceId)).attributes.recordCount, 30, "no row was duplicated");
  });

  it("says in the user's terms why the service refused a write, with its reference", async () => {
    const token = await sandbox.token();
    const client = sandboxClient(sandbox.url, () => token, clientTimeOn(clock));
    const audience = await client.createAudience({ name: "Refusals", kind: "COMPANY", columns: [{ name: "Website", dataType: "URL" }] });
    const website = audience.columns[0]!.columnId;
    const unknownRow = await client
      .upsertAudienceRows(audience.audienceId, [{ rowId: "no-such-row", cells: { [website]: "example.com" } }])
      .catch((e: unknown) => e);
    assert.match(errorText(unknownRow), /^Row no-such-row is not in this audience\. Correct it and try again\. \(Reference: [0-9a-f-]{36}\)$/);
    await client.upsertAudienceRows(audience.audienceId, [{ cells: { [website]: "example.com" } }]);
    const unmatched = await client.startAudienceEnrichment(audience.audienceId, { scope: "AUDIENCE" }).catch((e: unknown) => e);
    assert.match(errorText(unmatched), /^Map this audience's columns to match criteria first/);
    // The token is nowhere in the errors: not their text, not anything they carry.
    for (const error of [unknownRow, unmatched]) assert.ok(!inspect(error, { depth: 8, showHidden: true }).includes(token), "the token is in an error");
  });
});

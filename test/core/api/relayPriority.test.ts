// Through the organization's relay, every request tells its priority (X-BizData-Priority), so the
// relay's central pacing serves a person's requests before bulk work; straight to the service the
// header is never sent (the service does not know it).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { harness } from "./harness.js";
import { answer, companyPage } from "./scripted.js";

const page = companyPage([1], 1, 1, 25);

describe("priority header for the relay", () => {
  it("says interactive or bulk on each request when the client talks to a relay", async () => {
    const h = harness(() => answer(200, page), { tellPriority: true });
    await h.clock.run(h.client.searchCompanies({ companyName: "Acme" }));
    await h.clock.run(h.client.searchCompanies({ companyName: "Acme" }, { priority: "bulk" }));
    assert.deepEqual(
      h.requests.map((r) => r.headers["x-bizdata-priority"]),
      ["interactive", "bulk"],
    );
  });

  it("is not sent to the service itself", async () => {
    const h = harness(() => answer(200, page));
    await h.clock.run(h.client.searchCompanies({ companyName: "Acme" }, { priority: "bulk" }));
    assert.equal(h.requests.length, 1);
    assert.equal(h.requests[0]!.headers["x-bizdata-priority"], undefined);
  });
});

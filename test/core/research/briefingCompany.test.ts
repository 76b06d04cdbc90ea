// A briefing names its company by the briefing's own title, not by an id.
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { briefingCompany } from "../../../src/core/research/index.js";

describe("briefingCompany", () => {
  it("is the briefing's title, its markdown escapes undone", () => {
    assert.equal(
      briefingCompany({ companyId: "2452", markdown: "# Crimson Star \\(Holdings\\)\n\nA maker of things.\n\n## Firmographics\n" }),
      "Crimson Star (Holdings)",
    );
    assert.equal(briefingCompany({ companyId: "7", markdown: "Intro line\n# Polar Valley #\n" }), "Polar Valley");
  });

  it("falls back to the id when the briefing has no title", () => {
    assert.equal(briefingCompany({ companyId: "13016", markdown: "## Firmographics\n\n- 40 employees\n" }), "company 13016");
    assert.equal(briefingCompany({ companyId: "13016", markdown: "" }), "company 13016");
  });
});

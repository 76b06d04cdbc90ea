// functions.json as the build generates it from the JSDoc of src/functions/functions.ts.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import metadata from "custom-functions-metadata";

interface Parameter {
  name: string;
  description?: string;
  type?: string;
  dimensionality?: string;
}
interface FunctionMetadata {
  id: string;
  name: string;
  description?: string;
  parameters: Parameter[];
  result: { dimensionality?: string; type?: string };
}

const generated = await metadata.generateCustomFunctionsMetadata("src/functions/functions.ts", false);
const json = JSON.parse(generated.metadataJson) as { functions: FunctionMetadata[]; allowCustomDataForDataTypeAny?: boolean };
const byId = new Map(json.functions.map((f) => [f.id, f]));

describe("generated functions.json", () => {
  it("has no generator errors and every enrichment function", () => {
    assert.deepEqual(generated.errors, []);
    for (const id of ["COMPANY", "COMPANYROW", "CONTACT", "COMPANYCARD"]) assert.ok(byId.has(id), id);
  });

  it("declares the parameters and result shapes", () => {
    const shape = (id: string) => byId.get(id)!.parameters.map((p) => `${p.name}:${p.type ?? "any"}:${p.dimensionality ?? "scalar"}`);
    assert.deepEqual(shape("COMPANY"), ["companyId:any:scalar", "field:string:scalar"]);
    assert.deepEqual(shape("COMPANYROW"), ["companyId:any:scalar", "fields:any:matrix"]);
    assert.deepEqual(shape("CONTACT"), ["personId:any:scalar", "field:string:scalar"]);
    assert.deepEqual(shape("COMPANYCARD"), ["companyId:any:scalar"]);
    assert.equal(byId.get("COMPANYROW")!.result.dimensionality, "matrix");
    for (const id of ["COMPANY", "CONTACT", "COMPANYCARD"]) assert.equal(byId.get(id)!.result.dimensionality ?? "scalar", "scalar");
    // The invocation parameter is Excel's, not the user's.
    for (const f of byId.values()) assert.ok(!f.parameters.some((p) => p.name === "invocation"));
    // Entity values (COMPANYCARD) need this flag.
    assert.equal(json.allowCustomDataForDataTypeAny, true);
  });

  it("carries help text for every function and argument", () => {
    for (const f of byId.values()) {
      assert.ok((f.description ?? "").length > 20, `${f.id} description`);
      for (const p of f.parameters) assert.ok((p.description ?? "").length > 10, `${f.id}.${p.name} description`);
    }
    assert.match(byId.get("COMPANY")!.description!, /=BIZ\.COMPANY\(/);
    assert.match(byId.get("COMPANYROW")!.parameters[1]!.description!, /comma-separated/);
  });

  it("declares BIZ.INSIGHT: a company and an optional type, one text", () => {
    const insight = byId.get("INSIGHT")!;
    assert.deepEqual(
      insight.parameters.map((p) => [p.name, p.type ?? "any", (p as { optional?: boolean }).optional === true]),
      [
        ["company", "any", false],
        ["type", "any", true],
      ],
    );
    assert.equal(insight.result.type, "string");
    assert.match(insight.description!, /=BIZ\.INSIGHT\(/);
  });
});

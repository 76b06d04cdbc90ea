// Normalization behind match keys: websites, names and emails in the spellings lists carry.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  detectColumnContent,
  normalizeEmail,
  normalizeName,
  normalizeWebsite,
  prepareCompanyMatch,
  preparePersonMatch,
} from "../../../src/core/enrich/resolver.js";

const value = (n: { ok: boolean; value?: string }) => (n.ok ? n.value : undefined);

describe("websites", () => {
  test("scheme, www., user, port, path, query, case and trailing dots are removed", () => {
    for (const spelling of [
      "acme.com",
      "ACME.COM",
      "https://www.acme.com/about",
      "http://WWW.Acme.com./",
      "www.acme.com",
      "https://acme.com:443/x?y=1#z",
      "  acme.com/  ",
      "ftp://user@acme.com",
      "www2.acme.com",
    ]) {
      assert.equal(value(normalizeWebsite(spelling)), "acme.com", spelling);
    }
    assert.equal(value(normalizeWebsite("https://shop.acme.co.uk/en")), "shop.acme.co.uk", "other subdomains stay");
  });

  test("text that is not a website is refused with a reason", () => {
    for (const bad of ["", "   ", "acme", "acme inc.com", "http://", "acme.c0m", "-acme.com", 42]) {
      const result = normalizeWebsite(bad);
      assert.equal(result.ok, false, String(bad));
      if (!result.ok) assert.ok(result.reason.length > 0);
    }
  });
});

describe("names", () => {
  test("case, accents, spacing and punctuation do not count", () => {
    assert.equal(value(normalizeName("  ACME,   Inc. ")), "acme inc");
    assert.equal(value(normalizeName("acme inc")), "acme inc");
    assert.equal(value(normalizeName("Fabrikam S.A.")), value(normalizeName("fabrikam sa")));
    assert.equal(value(normalizeName("Société Générale")), "societe generale");
    assert.equal(value(normalizeName("AT&T")), value(normalizeName("AT and T")));
  });

  test("legal suffixes are kept in the key: only the service can tell Northwind GmbH from Northwind Ltd", () => {
    assert.notEqual(value(normalizeName("Northwind GmbH")), value(normalizeName("Northwind Ltd")));
  });

  test("blank or punctuation-only names are refused", () => {
    assert.equal(normalizeName("").ok, false);
    assert.equal(normalizeName(" -- ").ok, false);
  });
});

describe("emails", () => {
  test("exact without case; mailto: and spaces removed", () => {
    assert.equal(value(normalizeEmail(" Jane.Doe@Acme.COM ")), "jane.doe@acme.com");
    assert.equal(value(normalizeEmail("mailto:jane@acme.com")), "jane@acme.com");
    assert.notEqual(value(normalizeEmail("jane.doe@acme.com")), value(normalizeEmail("janedoe@acme.com")), "no further folding");
  });
  test("not an email address", () => {
    for (const bad of ["jane", "jane@", "@acme.com", "jane@acme", "ja ne@acme.com"]) assert.equal(normalizeEmail(bad).ok, false, bad);
  });
});

describe("match keys", () => {
  test("spellings of one website share a key and send the bare domain", () => {
    const a = prepareCompanyMatch({ website: "https://www.acme.com/about" });
    const b = prepareCompanyMatch({ website: "ACME.COM" });
    assert.ok(a.ok && b.ok);
    assert.equal(a.key, b.key);
    assert.deepEqual(a.input, { companyWebsite: "acme.com" });
  });

  test("a name's key includes its country and city, without case or spacing", () => {
    const a = prepareCompanyMatch({ name: "Northwind  Traders", country: "Germany" });
    const b = prepareCompanyMatch({ name: "northwind traders", country: " GERMANY " });
    const c = prepareCompanyMatch({ name: "Northwind Traders", country: "France" });
    assert.ok(a.ok && b.ok && c.ok);
    assert.equal(a.key, b.key);
    assert.notEqual(a.key, c.key);
    assert.deepEqual(a.input, { companyName: "Northwind  Traders", companyCountry: "Germany" });
  });

  test("a person by email, or by name with a company; a name alone is refused", () => {
    const byEmail = preparePersonMatch({ email: "Jane@Acme.com" });
    assert.ok(byEmail.ok);
    assert.deepEqual(byEmail.input, { emailAddress: "jane@acme.com" });
    const byName = preparePersonMatch({ name: "Jane Doe", company: "Acme" });
    assert.ok(byName.ok);
    assert.deepEqual(byName.input, { firstName: "Jane", lastName: "Doe", companyName: "Acme" });
    const byCompanyId = preparePersonMatch({ name: "Jane van Doe", company: 42 });
    assert.ok(byCompanyId.ok);
    assert.deepEqual(byCompanyId.input, { fullName: "Jane van Doe", companyId: 42 });
    const alone = preparePersonMatch({ name: "Jane Doe" });
    assert.equal(alone.ok, false);
  });
});

describe("what a column holds", () => {
  test("websites, emails, names and ids are told apart by most cells", () => {
    assert.equal(detectColumnContent(["acme.com", "https://www.contoso.com/x", "", "Fabrikam"]), "website");
    assert.equal(detectColumnContent(["jane@acme.com", "JOE@contoso.com", null]), "email");
    assert.equal(detectColumnContent(["Acme Inc.", "Fabrikam S.A.", "contoso.com"]), "name");
    assert.equal(detectColumnContent([1, "22", 333]), "id");
    assert.equal(detectColumnContent([]), "name");
  });
});

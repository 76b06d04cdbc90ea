// The manifest, checked offline: valid against Microsoft's XML schemas (xmllint with the patched
// XSDs in test/fixtures/office-xsd), every resid is defined, the shared runtime is the same page
// everywhere (Runtimes, custom functions Script/Page, FunctionFile, task pane) and no action of its
// host names a TaskpaneId (Microsoft's shared-runtime guidance), the functions namespace is BIZ,
// and each icon exists in assets/ at the size the manifest claims. The same checks run on every
// production rewrite of the manifest (scripts/build-manifest.ts, the function webpack calls).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { DEV_ADDIN_URL, DEV_SERVICE_URL, manifestTargetFromEnv, rewriteFunctionsMetadata, rewriteManifest } from "../scripts/build-manifest.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const manifestXml = readFileSync(join(root, "manifest.xml"), "utf8");
/** Microsoft's manifest schemas, patched as test/fixtures/office-xsd/README.md says. */
const manifestSchema = join(root, "test/fixtures/office-xsd/OfficeAppManifestV1_1.xsd");

/** xmllint's complaints about a manifest against Microsoft's schemas; empty when it validates. */
function schemaErrors(xml: string): string[] {
  const run = spawnSync("xmllint", ["--noout", "--nonet", "--schema", manifestSchema, "-"], { input: xml, encoding: "utf8" });
  assert.ok(!run.error, `xmllint did not run (Debian package libxml2-utils; .ci/run installs it): ${run.error?.message}`);
  if (run.status === 0) return [];
  return run.stderr.split("\n").filter((line) => line.trim() !== "" && !line.endsWith("fails to validate"));
}

interface XmlElement {
  name: string;
  attributes: Map<string, string>;
  children: XmlElement[];
  text: string;
}

/** fast-xml-parser's ordered form: one key per node (its name, or #text), attributes under ":@". */
type OrderedNode = Record<string, unknown> & { ":@"?: Record<string, string> };

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
});

function toElement(node: OrderedNode): XmlElement | undefined {
  const name = Object.keys(node).find((key) => key !== ":@");
  if (name === undefined || name === "#text" || name.startsWith("?")) return undefined;
  const content = (node[name] ?? []) as OrderedNode[];
  const element: XmlElement = { name, attributes: new Map(Object.entries(node[":@"] ?? {})), children: [], text: "" };
  for (const part of content) {
    if ("#text" in part) element.text += String(part["#text"]);
    const child = toElement(part);
    if (child) element.children.push(child);
  }
  return element;
}

/** The manifest's root element, read with fast-xml-parser after its well-formedness check. */
function parseXml(source: string): XmlElement {
  const valid = XMLValidator.validate(source);
  if (valid !== true) assert.fail(`manifest.xml: ${valid.err.msg} (line ${valid.err.line})`);
  const roots = (parser.parse(source) as OrderedNode[]).flatMap((node) => toElement(node) ?? []);
  assert.equal(roots.length, 1, "one root element");
  return roots[0]!;
}

function descendants(element: XmlElement, name?: string): XmlElement[] {
  const found: XmlElement[] = [];
  const visit = (node: XmlElement) => {
    for (const child of node.children) {
      if (name === undefined || child.name === name) found.push(child);
      visit(child);
    }
  };
  visit(element);
  return found;
}

function only(element: XmlElement, name: string): XmlElement {
  const found = descendants(element, name);
  assert.equal(found.length, 1, `exactly one <${name}> in <${element.name}>`);
  return found[0]!;
}

function child(element: XmlElement, name: string): XmlElement {
  const found = element.children.filter((node) => node.name === name);
  assert.equal(found.length, 1, `exactly one direct <${name}> in <${element.name}>`);
  return found[0]!;
}

function attribute(element: XmlElement, name: string): string {
  const value = element.attributes.get(name);
  assert.ok(value !== undefined, `<${element.name}> has ${name}`);
  return value;
}

function xsiType(element: XmlElement): string | undefined {
  return element.attributes.get("xsi:type");
}

function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(file);
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], `${file} is a PNG`);
  assert.equal(bytes.subarray(12, 16).toString("ascii"), "IHDR");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Resource id -> value, from bt:Images, bt:Urls, bt:ShortStrings and bt:LongStrings. */
function resources(app: XmlElement): Map<string, string> {
  const table = new Map<string, string>();
  const section = only(app, "Resources");
  for (const group of section.children) {
    for (const entry of group.children) {
      const id = attribute(entry, "id");
      assert.ok(!table.has(id), `resource ${id} defined once`);
      table.set(id, attribute(entry, "DefaultValue"));
    }
  }
  return table;
}

/** The file under assets/ a URL of the add-in names, relative to the add-in's base URL. */
function assetFile(url: string, addinUrl: string): string {
  assert.ok(url.startsWith(`${addinUrl}/assets/`), `${url} is served from ${addinUrl}/assets/`);
  return join(root, url.slice(addinUrl.length + 1));
}

function checkWiring(xml: string, addinUrl: string): void {
  const app = parseXml(xml);
  assert.equal(app.name, "OfficeApp");
  assert.equal(xsiType(app), "TaskPaneApp");
  const table = resources(app);

  // Every resid names a defined resource, and every resource is used.
  const referenced = new Set(descendants(app).flatMap((element) => element.attributes.get("resid") ?? []));
  for (const resid of referenced) assert.ok(table.has(resid), `resid "${resid}" is defined in <Resources>`);
  for (const id of table.keys()) assert.ok(referenced.has(id), `resource "${id}" is used`);
  const url = (resid: string) => table.get(resid)!;

  // Shared runtime: required, long-lived, and the same page for everything.
  const sets = descendants(only(app, "Requirements"), "Set");
  assert.ok(
    sets.some((set) => attribute(set, "Name") === "SharedRuntime" && attribute(set, "MinVersion") === "1.1"),
    "requires SharedRuntime 1.1",
  );
  const runtime = only(only(app, "Runtimes"), "Runtime");
  assert.equal(attribute(runtime, "lifetime"), "long");
  const runtimeResid = attribute(runtime, "resid");
  const runtimeUrl = url(runtimeResid);
  assert.equal(runtimeUrl, `${addinUrl}/taskpane.html`);
  assert.equal(attribute(only(only(app, "DefaultSettings"), "SourceLocation"), "DefaultValue"), runtimeUrl, "task pane page");

  const hosts = descendants(only(app, "VersionOverrides"), "Host");
  assert.equal(hosts.length, 1);
  assert.equal(xsiType(hosts[0]!), "Workbook");
  assert.deepEqual(
    child(app, "Hosts")
      .children.map((h) => h.attributes.get("Name"))
      .filter(Boolean),
    ["Workbook"],
  );

  const functionsPoint = descendants(app, "ExtensionPoint").filter((point) => xsiType(point) === "CustomFunctions");
  assert.equal(functionsPoint.length, 1, "one CustomFunctions extension point");
  const functions = functionsPoint[0]!;
  assert.equal(attribute(only(only(functions, "Script"), "SourceLocation"), "resid"), runtimeResid, "functions Script runs in the shared runtime");
  assert.equal(attribute(only(only(functions, "Page"), "SourceLocation"), "resid"), runtimeResid, "functions Page is the shared runtime");
  assert.equal(url(attribute(only(only(functions, "Metadata"), "SourceLocation"), "resid")), `${addinUrl}/functions.json`);
  assert.equal(table.get(attribute(only(functions, "Namespace"), "resid")), "BIZ");
  assert.equal(attribute(only(app, "FunctionFile"), "resid"), runtimeResid, "FunctionFile is the shared runtime");

  const showTaskpane = descendants(app, "Action").filter((action) => xsiType(action) === "ShowTaskpane");
  assert.ok(showTaskpane.length >= 1, "a ribbon button opens the task pane");
  for (const action of showTaskpane) {
    assert.equal(attribute(only(action, "SourceLocation"), "resid"), runtimeResid, "the task pane is the shared runtime");
  }
  // Microsoft's shared-runtime guidance: one task pane, so no action of the long-lived host names one.
  for (const action of descendants(hosts[0]!, "Action")) {
    assert.equal(descendants(action, "TaskpaneId").length, 0, "no <TaskpaneId> on an action of the shared runtime's host");
  }
  const ribbon = descendants(app, "ExtensionPoint").find((point) => xsiType(point) === "PrimaryCommandSurface");
  assert.ok(ribbon, "ribbon commands");
  assert.equal(attribute(only(ribbon, "OfficeTab"), "id"), "TabHome");

  // Icons: each referenced image exists at the size it is declared with.
  const images = descendants(app, "bt:Image").filter((image) => image.attributes.has("size"));
  assert.ok(images.length > 0);
  for (const image of images) {
    const size = Number(attribute(image, "size"));
    const file = assetFile(url(attribute(image, "resid")), addinUrl);
    assert.ok(existsSync(file), `${file} exists`);
    assert.deepEqual(pngSize(file), { width: size, height: size }, `${file} is ${size}x${size}`);
  }
  for (const [element, size] of [
    ["IconUrl", 32],
    ["HighResolutionIconUrl", 64],
  ] as const) {
    const file = assetFile(attribute(only(app, element), "DefaultValue"), addinUrl);
    assert.deepEqual(pngSize(file), { width: size, height: size }, `${element} is ${size}x${size}`);
  }

  // Every URL of the add-in is HTTPS on the add-in's origin.
  const urls = [...table.values()].filter((value) => value.startsWith("http"));
  urls.push(
    ...descendants(app)
      .flatMap((element) => element.attributes.get("DefaultValue") ?? [])
      .filter((value) => value.startsWith("http")),
  );
  for (const value of urls) assert.ok(value.startsWith(`${addinUrl}/`), `${value} is on ${addinUrl}`);
}

/** The wiring checks and Microsoft's schema together: what every build variant must pass. */
function checkManifest(xml: string, addinUrl: string): void {
  assert.deepEqual(schemaErrors(xml), [], "valid against Microsoft's manifest schemas");
  checkWiring(xml, addinUrl);
}

function appDomains(xml: string): string[] {
  return descendants(parseXml(xml), "AppDomain").map((domain) => domain.text.trim());
}

describe("manifest.xml", () => {
  it("is valid against Microsoft's schemas and wired for one shared runtime on the dev server", () => {
    checkManifest(manifestXml, DEV_ADDIN_URL);
    assert.deepEqual(appDomains(manifestXml), [DEV_SERVICE_URL]);
  });

  it("fails the schema when an element is out of place, missing or unknown", () => {
    const broken = [
      manifestXml.replace("<Version>1.0.0.0</Version>", "<Version>one</Version>"),
      manifestXml.replace(/<Id>[^<]*<\/Id>/, ""),
      manifestXml.replace("<Permissions>ReadWriteDocument</Permissions>", "<Permissions>Everything</Permissions>"),
      manifestXml.replace('<Runtime resid="Taskpane.Url" lifetime="long"/>', '<Runtime resid="Taskpane.Url" lifetime="forever"/>'),
      manifestXml.replace("<AllFormFactors>", "<AllFormFactors>\n<Unknown/>"),
    ];
    for (const xml of broken) {
      assert.notEqual(xml, manifestXml);
      assert.notDeepEqual(schemaErrors(xml), [], "the schema refuses the broken manifest");
    }
    assert.throws(() => checkManifest(broken[0]!, DEV_ADDIN_URL), /Microsoft's manifest schemas/);
  });

  it("rejects a <TaskpaneId> on an action under the shared runtime's host", () => {
    const named = manifestXml.replace('<Action xsi:type="ShowTaskpane">', '<Action xsi:type="ShowTaskpane">\n<TaskpaneId>BizData.Taskpane</TaskpaneId>');
    assert.notEqual(named, manifestXml);
    assert.deepEqual(schemaErrors(named), [], "the schema allows it; the shared-runtime guidance does not");
    assert.throws(() => checkWiring(named, DEV_ADDIN_URL), /TaskpaneId/);
  });

  it("rejects a resid that is not defined", () => {
    const broken = manifestXml.replace('<FunctionFile resid="Taskpane.Url"/>', '<FunctionFile resid="Taskpane.Missing"/>');
    assert.notEqual(broken, manifestXml);
    assert.throws(() => checkWiring(broken, DEV_ADDIN_URL), /Taskpane\.Missing/);
  });

  it("rejects a task pane that is not the shared runtime", () => {
    const split = manifestXml
      .replace('<FunctionFile resid="Taskpane.Url"/>', '<FunctionFile resid="Commands.Url"/>')
      .replace("<bt:Urls>", '<bt:Urls>\n        <bt:Url id="Commands.Url" DefaultValue="https://localhost:3000/commands.html"/>');
    assert.throws(() => checkWiring(split, DEV_ADDIN_URL), /FunctionFile is the shared runtime/);
  });

  it("rejects an icon declared at a size its file does not have", () => {
    const wrongSize = manifestXml.replace(
      '<bt:Image id="Icon.80x80" DefaultValue="https://localhost:3000/assets/icon-80.png"/>',
      '<bt:Image id="Icon.80x80" DefaultValue="https://localhost:3000/assets/icon-64.png"/>',
    );
    assert.notEqual(wrongSize, manifestXml);
    assert.throws(() => checkWiring(wrongSize, DEV_ADDIN_URL), /icon-64\.png is 80x80/);
  });

  it("rejects a functions namespace other than BIZ", () => {
    const renamed = manifestXml.replace(
      '<bt:String id="Functions.Namespace" DefaultValue="BIZ"/>',
      '<bt:String id="Functions.Namespace" DefaultValue="CONTOSO"/>',
    );
    assert.throws(() => checkWiring(renamed, DEV_ADDIN_URL), /BIZ/);
  });
});

describe("production manifest", () => {
  it("moves every add-in URL to ADDIN_PUBLIC_URL and the AppDomains to the service", () => {
    const target = manifestTargetFromEnv({
      ADDIN_PUBLIC_URL: "https://addin.example.com/excel/",
      SERVICE_API_URL: "https://api.service.example/data/v1",
      SERVICE_SIGNIN_URL: "https://login.service.example",
    });
    const xml = rewriteManifest(manifestXml, target);
    assert.ok(!xml.includes("localhost"), "no localhost URL is left");
    checkManifest(xml, "https://addin.example.com/excel");
    assert.deepEqual(appDomains(xml), ["https://api.service.example", "https://login.service.example"]);
  });

  it("is valid against Microsoft's schemas in every deployment variant", () => {
    const variants: Array<[Record<string, string>, string]> = [
      [{ ADDIN_PUBLIC_URL: "https://addin.example.com" }, "https://addin.example.com"],
      [{ ADDIN_PUBLIC_URL: "https://addin.example.com/a&b/" }, "https://addin.example.com/a&b"],
      [{ SERVICE_API_URL: "https://api.service.example/v1" }, DEV_ADDIN_URL],
      [
        {
          ADDIN_PUBLIC_URL: "https://addin.example.com/excel",
          SERVICE_API_URL: "https://api.service.example/v1",
          SERVICE_SIGNIN_URL: "https://login.service.example/authorize",
          BROKER_URL: "https://broker.example.org",
          SERVICE_RELAY_URL: "https://relay.example.org/api",
        },
        "https://addin.example.com/excel",
      ],
    ];
    for (const [env, addinUrl] of variants) {
      const xml = rewriteManifest(manifestXml, manifestTargetFromEnv(env));
      assert.notEqual(xml, manifestXml, JSON.stringify(env));
      checkManifest(xml, addinUrl);
    }
  });

  it("keeps the sandbox AppDomain when no service URL is given", () => {
    const xml = rewriteManifest(manifestXml, manifestTargetFromEnv({ ADDIN_PUBLIC_URL: "https://addin.example.com" }));
    checkManifest(xml, "https://addin.example.com");
    assert.deepEqual(appDomains(xml), [DEV_SERVICE_URL]);
  });

  it("leaves the manifest as it is without a target", () => {
    assert.equal(rewriteManifest(manifestXml, manifestTargetFromEnv({})), manifestXml);
  });

  it("moves the help links of functions.json to ADDIN_PUBLIC_URL", () => {
    const metadata = JSON.stringify({ functions: [{ id: "COMPANY", helpUrl: `${DEV_ADDIN_URL}/help.html#company` }] });
    const target = manifestTargetFromEnv({ ADDIN_PUBLIC_URL: "https://addin.example.com/excel" });
    const rewritten = JSON.parse(rewriteFunctionsMetadata(metadata, target));
    assert.equal(rewritten.functions[0].helpUrl, "https://addin.example.com/excel/help.html#company");
    assert.equal(rewriteFunctionsMetadata(metadata, {}), metadata);
  });

  it("refuses URLs Office cannot load", () => {
    assert.throws(() => manifestTargetFromEnv({ ADDIN_PUBLIC_URL: "http://addin.example.com" }), /ADDIN_PUBLIC_URL must start with https:\/\//);
    assert.throws(() => manifestTargetFromEnv({ ADDIN_PUBLIC_URL: "addin.example.com" }), /ADDIN_PUBLIC_URL must be a full address/);
    assert.throws(() => manifestTargetFromEnv({ ADDIN_PUBLIC_URL: "https://addin.example.com", SERVICE_API_URL: "http://api" }), /SERVICE_API_URL/);
  });
});

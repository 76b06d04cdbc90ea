// The localhost certificates: an HTTPS server using them is verified by a client that trusts
// the returned CA, and servers starting at the same time get the same certificate.
import assert from "node:assert/strict";
import { X509Certificate } from "node:crypto";
import { createServer, get } from "node:https";
import type { AddressInfo } from "node:net";
import { describe, it } from "node:test";
import { loadDevCertificates } from "../../scripts/certs.js";

function fetchText(port: number, ca: string | undefined): Promise<string> {
  return new Promise((done, fail) => {
    get({ host: "localhost", port, path: "/", ca }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => done(body));
    }).on("error", fail);
  });
}

describe("loadDevCertificates", () => {
  it("gives concurrent callers the same certificate for localhost", async () => {
    const [first, second] = await Promise.all([loadDevCertificates(), loadDevCertificates()]);
    assert.equal(first.cert, second.cert);
    assert.equal(first.key, second.key);
    const certificate = new X509Certificate(first.cert);
    assert.ok(certificate.checkHost("localhost"), "valid for localhost");
    assert.ok(certificate.checkIP("127.0.0.1"), "valid for 127.0.0.1");
    if (!first.trusted) assert.ok(first.ca, "an untrusted certificate comes with its CA");
  });

  it("serves HTTPS that a client trusting the CA verifies", async () => {
    const certificates = await loadDevCertificates();
    const server = createServer({ key: certificates.key, cert: certificates.cert }, (_request, response) => response.end("ok"));
    await new Promise<void>((listening) => server.listen(0, "localhost", listening));
    try {
      const { port } = server.address() as AddressInfo;
      assert.equal(await fetchText(port, certificates.ca), "ok");
      if (!certificates.trusted) {
        // Without the CA the same request is refused: the check above is meaningful.
        await assert.rejects(fetchText(port, undefined), /self-signed|unable to verify|certificate/i);
      }
    } finally {
      await new Promise((closed) => server.close(closed));
    }
  });
});

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

/** Serves "ok" over HTTPS with the certificates on a free localhost port while `use` runs. */
async function withServer(certificates: { key: string; cert: string }, use: (port: number) => Promise<void>): Promise<void> {
  const server = createServer({ key: certificates.key, cert: certificates.cert }, (_request, response) => response.end("ok"));
  await new Promise<void>((listening) => server.listen(0, "localhost", listening));
  try {
    await use((server.address() as AddressInfo).port);
  } finally {
    await new Promise((closed) => server.close(closed));
  }
}

// Trusted when the Office development CA is installed on this machine; self-made otherwise.
const { trusted } = await loadDevCertificates();

describe("loadDevCertificates", () => {
  it("gives concurrent callers the same certificate for localhost", async () => {
    const [first, second] = await Promise.all([loadDevCertificates(), loadDevCertificates()]);
    assert.equal(first.cert, second.cert);
    assert.equal(first.key, second.key);
    const certificate = new X509Certificate(first.cert);
    assert.ok(certificate.checkHost("localhost"), "valid for localhost");
    assert.ok(certificate.checkIP("127.0.0.1"), "valid for 127.0.0.1");
  });

  it("serves HTTPS that a client trusting the CA verifies", async () => {
    const certificates = await loadDevCertificates();
    await withServer(certificates, async (port) => assert.equal(await fetchText(port, certificates.ca), "ok"));
  });

  it(
    "self-made certificates come with their CA, without which a client refuses them",
    { skip: trusted ? "the Office development CA is installed here: no self-made certificates" : false },
    async () => {
      const certificates = await loadDevCertificates();
      assert.ok(certificates.ca, "an untrusted certificate comes with its CA");
      // Without the CA the same request is refused: the test above is meaningful.
      await withServer(certificates, (port) => assert.rejects(fetchText(port, undefined), /self-signed|unable to verify|certificate/i));
    },
  );
});

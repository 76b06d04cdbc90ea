// The localhost certificates of the dev server; the same module serves the sandbox, so both
// servers share one certificate authority.
export { FALLBACK_CERTIFICATE_DIR, loadDevCertificates, tryInstallTrustedCertificates, untrustedCertificateHint } from "../src/sandbox/certificates.js";

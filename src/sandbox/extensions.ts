// Parts mounted on the sandbox app after its core routes (sign-in server, audiences).
// Each extension appends itself here with one import.
import type { SandboxExtension } from "./context.js";
import { oidcExtension } from "./oidc/index.js";
import { audiencesExtension } from "./audiences/index.js";
import { productionExtension } from "./production/index.js";

export const extensions: SandboxExtension[] = [oidcExtension, audiencesExtension, productionExtension];

// Who can sign in to the production profile: the sandbox's users (with the audience scopes
// added, as production apps hold them) and one user whose account lacks some output fields.
import { createHash, timingSafeEqual } from "node:crypto";
import { SCOPES } from "../../core/contract/index.js";
import { SANDBOX_USERS, type SandboxUser } from "../oidc/index.js";
import { PLAN_SCOPES } from "../oidc/users.js";
import { ALL_ROLES } from "../plan/roles.js";
import { LIMITED_ACCOUNT } from "./entitlements.js";
import { AUDIENCE_SCOPES } from "./studio.js";

const AUDIENCE = [AUDIENCE_SCOPES.read, AUDIENCE_SCOPES.manage];

const LIMITED_USER: SandboxUser = {
  id: "user-limited",
  email: "limited@example.com",
  password: "limited-pass",
  name: "Lee Limited",
  account: LIMITED_ACCOUNT,
  scopes: [...Object.values(SCOPES), ...PLAN_SCOPES, ...AUDIENCE],
  roles: [...ALL_ROLES],
  describes: "every scope; the account is not entitled to some output fields (production profile only)",
};

const PRODUCTION_USERS: readonly SandboxUser[] = [...SANDBOX_USERS.map((u) => ({ ...u, scopes: [...u.scopes, ...AUDIENCE] })), LIMITED_USER];

export function findProductionUser(id: string): SandboxUser | undefined {
  return PRODUCTION_USERS.find((u) => u.id === id);
}

const digest = (s: string) => createHash("sha256").update(s).digest();

export function checkProductionCredentials(email: string, password: string): SandboxUser | undefined {
  const user = PRODUCTION_USERS.find((u) => u.email === email.trim().toLowerCase());
  return user && timingSafeEqual(digest(user.password), digest(password)) ? user : undefined;
}

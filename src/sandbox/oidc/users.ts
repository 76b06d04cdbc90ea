// The sandbox's seeded sign-in users. Their passwords are public on purpose (README): the
// sandbox holds no real data and exists so anyone can try every permission case.
import { DATA_ROLES, ENTITLEMENT_SCOPES, INSIGHTS_SCOPE, ROLES, SCOPES } from "../../core/contract/index.js";
import { ALL_ROLES, BASIC_ROLES } from "../plan/roles.js";

export interface SandboxUser {
  /** Stable subject of the user's tokens. */
  id: string;
  email: string;
  password: string;
  name: string;
  /** The service account (credit balance, audiences) the user works in. */
  account: string;
  /** Data scopes the user may be granted; requested scopes outside this set are refused. */
  scopes: string[];
  roles: string[];
  /** One line for the README and the login page's hint. */
  describes: string;
}

const ALL_DATA_SCOPES = Object.values(SCOPES);
/** Reading the plan (either spelling of the scope) and insights, besides the data scopes. */
export const PLAN_SCOPES: readonly string[] = [...ENTITLEMENT_SCOPES, INSIGHTS_SCOPE];
const EVERY_SCOPE = [...ALL_DATA_SCOPES, ...PLAN_SCOPES];

/** The dev tokens' account, so signed-in users and dev tokens share credits and audiences. */
const SANDBOX_ACCOUNT = "default";

export const SANDBOX_USERS: readonly SandboxUser[] = [
  {
    id: "user-analyst",
    email: "analyst@example.com",
    password: "analyst-pass",
    name: "Avery Analyst",
    account: SANDBOX_ACCOUNT,
    scopes: EVERY_SCOPE,
    roles: [...ALL_ROLES],
    describes: "full access: every scope and every role of the plan, insights included",
  },
  {
    id: "user-basic",
    email: "basic@example.com",
    password: "basic-pass",
    name: "Blair Basic",
    account: SANDBOX_ACCOUNT,
    scopes: [...ALL_DATA_SCOPES, ENTITLEMENT_SCOPES[0]],
    roles: [...BASIC_ROLES],
    describes: `every data scope; a plan without intent (${ROLES.intent}), research (${ROLES.accountSummary}, ${ROLES.askAccount}) or insights (${ROLES.insights})`,
  },
  {
    id: "user-nocontact",
    email: "nocontact@example.com",
    password: "nocontact-pass",
    name: "Noel Nocontact",
    account: SANDBOX_ACCOUNT,
    scopes: EVERY_SCOPE.filter((s) => s !== SCOPES.contact),
    roles: [...ALL_ROLES],
    describes: `every data scope except ${SCOPES.contact}`,
  },
  {
    id: "user-norole",
    email: "norole@example.com",
    password: "norole-pass",
    name: "Nora Norole",
    account: SANDBOX_ACCOUNT,
    scopes: ALL_DATA_SCOPES,
    roles: [],
    describes: `every data scope but neither role ${DATA_ROLES.join(" nor ")}`,
  },
];

export function findUserById(id: string): SandboxUser | undefined {
  return SANDBOX_USERS.find((u) => u.id === id);
}

/** The user with these credentials (email case-insensitive), or undefined. */
export function checkCredentials(email: string, password: string): SandboxUser | undefined {
  const wanted = email.trim().toLowerCase();
  const user = SANDBOX_USERS.find((u) => u.email === wanted);
  if (!user) return undefined;
  return timingSafeEqualText(user.password, password) ? user : undefined;
}

function timingSafeEqualText(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) diff |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0);
  return diff === 0;
}

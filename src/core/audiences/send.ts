// A whole send: the audience made ready (created, or its columns completed), then the rows, with
// the match criteria set beside the first requests (they need the columns, not the rows), so
// the criteria cost no wait of their own: their request leaves first, before the rows' bodies
// are built. A criteria failure never loses the rows' result.
import type { AudienceMapping } from "./mapping.js";
import type { SendPlan } from "./plan.js";
import type { AudiencePort } from "./port.js";
import { criteriaOf, prepareTarget, type AudienceChoice, type SendTarget } from "./target.js";
import { sendRows, type SendOptions, type SendResult } from "./upload.js";

export interface AudienceSend {
  target: SendTarget;
  result: SendResult;
  /** Why the match criteria could not be set (the rows were sent; sending again sets them). */
  criteriaError?: unknown;
}

export async function sendToAudience(
  port: AudiencePort,
  choice: AudienceChoice,
  mapping: AudienceMapping,
  plan: SendPlan,
  options: SendOptions & { onPrepared?: (target: SendTarget) => void },
): Promise<AudienceSend> {
  const call = options.signal ? { signal: options.signal } : {};
  const target = await prepareTarget(port, choice, mapping, call);
  options.onPrepared?.(target);
  const criteriaSet = port.setMatchCriteria(target.audienceId, criteriaOf(mapping, target), call);
  // The criteria request leaves before the rows' bodies are built (that work would hold it back).
  await new Promise((resolve) => setTimeout(resolve, 0));
  const [criteria, result] = await Promise.allSettled([criteriaSet, sendRows(port, target, plan, options)]);
  if (result.status === "rejected") throw result.reason;
  return { target, result: result.value, ...(criteria.status === "rejected" ? { criteriaError: criteria.reason } : {}) };
}

// One job poller per service client, so the job panel and every =BIZ.JOBSTATUS cell of the
// shared runtime poll through one timer and share polls of the same job.
import type { ServiceClient } from "../api/types.js";
import { JobPoller } from "./poller.js";

const pollers = new WeakMap<Pick<ServiceClient, "getJob">, JobPoller>();

export function sharedJobPoller(client: Pick<ServiceClient, "getJob">): JobPoller {
  let poller = pollers.get(client);
  if (!poller) {
    poller = new JobPoller({ client });
    pollers.set(client, poller);
  }
  return poller;
}

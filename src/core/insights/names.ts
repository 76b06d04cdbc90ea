// What each of the service's signal types is called in the pane, the table and the cells
// (docs/signals.md, Insights), and how a cell's type argument is read: a code ("zi.funding"), a
// readable name ("Funding") or a short word ("funding", "cxo").
import { INSIGHT_TYPES, type InsightType } from "../contract/index.js";

export const INSIGHT_TYPE_NAMES: Readonly<Record<InsightType, string>> = {
  "zi.funding": "Funding",
  "zi.cxochange": "Leadership change",
  "zi.scoop": "Scoop",
  "zi.websights": "Website visits",
  "zi.buyingcommitteechange": "Buying committee change",
  "zi.account-level-intent.spike": "Intent spike",
  "zi.intent.competitor.spike": "Competitor intent spike",
  "zi.mpocchange": "Main point of contact change",
  "zi.g2": "G2 activity",
  "zi.trustradius": "TrustRadius activity",
  "zi.anomaloushiring": "Hiring surge",
  "zi.formcomplete": "Form completed",
  "zi.podcastmentions": "Podcast mention",
  "zi.marketingcampaigns": "Marketing campaign",
  "zi.technology": "Technology change",
  "zi.seniorjobpostings": "Senior job postings",
  "zi.personwebsights": "Visits by key people",
  "zi.personbasednews": "News about a person",
  "zi.wondeal": "Deal won",
  "zi.newcontactpreviouslyworkedforcustomer": "New contact from a customer",
  "zi.personchange": "Person change",
  "zi.upcomingmeeting": "Upcoming meeting",
  "zi.lowactivecontacts": "Few active contacts",
  "zi.nodecisionmaker": "No decision maker",
  "zi.nopostmeetingfollowup": "No follow-up after a meeting",
  "zi.upcomingrenewal": "Upcoming renewal",
  "zi.m&a": "Merger or acquisition",
  "zi.productlaunch": "Product launch",
  "zi.earnings": "Earnings",
  "zi.partnership": "Partnership",
  "zi.layoffs": "Layoffs",
  "zi.painpoint": "Pain point",
  "zi.divestiture": "Divestiture",
  "zi.ipo": "IPO",
  "zi.award": "Award",
  "zi.project": "Project",
};

/** A type's readable name; a type the service added since is shown as it came. */
export function insightTypeName(type: string): string {
  return (INSIGHT_TYPE_NAMES as Record<string, string>)[type] ?? type;
}

/** Short words a person may type for the common types. */
const SHORT: Readonly<Record<string, InsightType>> = {
  cxo: "zi.cxochange",
  leadership: "zi.cxochange",
  intent: "zi.account-level-intent.spike",
  hiring: "zi.anomaloushiring",
  renewal: "zi.upcomingrenewal",
  websights: "zi.websights",
  acquisition: "zi.m&a",
};

const squash = (text: string) => text.toLowerCase().replace(/[^a-z0-9&]/g, "");

/** The type a cell names, or undefined when it names none. */
export function insightTypeFromText(text: string): InsightType | undefined {
  const wanted = squash(text);
  if (wanted === "") return undefined;
  return (
    INSIGHT_TYPES.find((type) => squash(type) === wanted || squash(type.replace(/^zi\./, "")) === wanted || squash(INSIGHT_TYPE_NAMES[type]) === wanted) ??
    SHORT[wanted]
  );
}

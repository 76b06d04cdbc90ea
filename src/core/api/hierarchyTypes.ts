// Corporate families and org charts as the client gives them (hierarchyOperations.ts,
// docs/accounts.md): plain records read from the service's documents, so the cells, the pane and
// the committee cache never read a JSON:API item.
import type { AccountLookupEntity, FamilyTreeTop, HierarchyMatchInput, HierarchyOutputField, OrgChartAsk, ParentageItem } from "../contract/index.js";
import type { RequestPriority } from "./requestSpec.js";

/** How one input came out (as a record enrichment's: EnrichOutcome). */
export type HierarchyOutcome = "matched" | "noMatch" | "limitExceeded" | "invalidInput" | "other";

/** One page of an org chart: its people, the total and the pages it can be read in (at most 100). */
export interface OrgChartPage {
  items: OrgChartMember[];
  totalResults: number;
  pageNumber: number;
  totalPages: number;
}

export interface HierarchyCallOptions {
  signal?: AbortSignal;
  /** Who waits for it (default interactive; see RequestPriority). */
  priority?: RequestPriority;
}

/** One company's answer, in the order of the inputs. */
export interface HierarchyAnswer {
  input: HierarchyMatchInput;
  /** The service's matchStatus, as it said it ("NO_MATCH" for a NoMatch item without one). */
  matchStatus: string;
  outcome: HierarchyOutcome;
  /** The matched company's id. */
  companyId?: number;
  /** Its parents: the direct parent first, the ultimate parent last; empty for a company at the top of its family. */
  parentage: ParentageItem[];
  /** Its family from the ultimate parent down (the service gives one top). */
  familyTree: FamilyTreeTop[];
}

/** One person of an org chart (no email or phone: contact enrichment gives those). */
export interface OrgChartMember {
  personId: string;
  firstName: string;
  lastName: string;
  title: string;
  department: string;
  jobFunction: string;
  /** Tier by seniority within the department, 1 the highest (99 when the service gave none). */
  tier: number;
  /** Rank within the tier, 1 the head of the tier (99 when none). */
  subTier: number;
  hasEmail: boolean;
  hasDirectPhone: boolean;
  /** Contact accuracy score (70 to 99), when given. */
  accuracy?: number;
  companyId: string;
  companyName: string;
}

export interface OrgChartPageAsk extends HierarchyCallOptions {
  /** Page number (1 to 100) and size (1 to 100; default 25). */
  page?: number;
  size?: number;
  /** "contactAccuracyScore", "lastName", with "-" for descending; comma-separated. */
  sort?: string;
}

export interface OrgChartAllAsk extends HierarchyCallOptions {
  /** People a page (default and at most 100: the fewest requests). */
  pageSize?: number;
  sort?: string;
  /** Told after each page: the people read so far and the total. */
  onPage?: (read: number, total: number) => void;
}

/** One field the enrich lookup lists for an operation. */
export interface EnrichLookupField {
  fieldName: string;
  description: string;
  accessGranted?: boolean;
}

/** Corporate-hierarchy enrich, org-chart enrich (a page, or every page) and the enrich lookup. */
export interface HierarchyOperations {
  /** 1 to 25 companies by id, name or website; one answer per input, in order (NoMatch included). */
  enrichHierarchy(
    inputs: HierarchyMatchInput[],
    options?: HierarchyCallOptions & { outputFields?: readonly HierarchyOutputField[] },
  ): Promise<HierarchyAnswer[]>;
  /** One page of a company's org chart. */
  orgChartPage(ask: OrgChartAsk, options?: OrgChartPageAsk): Promise<OrgChartPage>;
  /** Every page of a company's org chart, read to the end (at most 100 pages). */
  orgChart(ask: OrgChartAsk, options?: OrgChartAllAsk): Promise<OrgChartMember[]>;
  /** The fields an operation takes (`input`) or gives (`output`). */
  enrichLookup(entity: AccountLookupEntity, fieldType: "input" | "output", options?: HierarchyCallOptions): Promise<EnrichLookupField[]>;
}

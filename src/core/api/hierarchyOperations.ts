// Corporate families and org charts (docs/accounts.md): corporate-hierarchy enrich (1 to 25
// companies by id, name or website), org-chart enrich (one company, its departments, a page or
// every page) and the enrich lookup of their fields. Each request is checked with the contract
// before it is sent (core/contract/hierarchy.ts, orgChart.ts), its answer shape-checked and read
// into plain records (hierarchyTypes.ts). Both profiles use the same paths; production's paging
// is read at the transport edge (production/edge.ts).
import {
  ACCOUNT_LOOKUP_ENTITIES,
  ERROR_CODES,
  type CorporateHierarchyDocument,
  hierarchyBody,
  LIMITS,
  ORG_CHART_MAX_PAGE_SIZE,
  orgChartBody,
  readOrgChartQuery,
  validateHierarchyBody,
  validateOrgChartBody,
  type HierarchyMatchInput,
  type OrgChartAsk,
  type OrgChartPerson,
} from "../contract/index.js";
import { refuse, withSignal, type ClientContext } from "./clientContext.js";
import { callOperation, operationLabel } from "./operationCall.js";
import { outcomeOf } from "./enrichOperations.js";
import { iteratePages } from "./paging.js";
import { toSearchPage } from "./searchOperations.js";
import type { SearchPage } from "./types.js";
import type { HierarchyAnswer, HierarchyCallOptions, HierarchyOperations, OrgChartMember, OrgChartPageAsk } from "./hierarchyTypes.js";

const NO_TIER = 99;

/** The caller's signal and priority, as a call of the table carries them. */
const asked = (options: HierarchyCallOptions | undefined) => ({ signal: options?.signal, priority: options?.priority });

/** The answer item of each input, in order (the service answers one per input). */
function hierarchyAnswers(inputs: readonly HierarchyMatchInput[], doc: CorporateHierarchyDocument): HierarchyAnswer[] {
  return inputs.map((input, i) => {
    const item = doc.data[i];
    const matchStatus = item?.meta?.matchStatus ?? (item?.type === "CorporateHierarchy" ? "FULL_MATCH" : "NO_MATCH");
    if (item?.type !== "CorporateHierarchy") return { input, matchStatus, outcome: outcomeOf(matchStatus), parentage: [], familyTree: [] };
    const a = item.attributes;
    const id = a.companyId ?? (/^[0-9]{1,15}$/.test(item.id) ? Number(item.id) : undefined);
    return {
      input,
      matchStatus,
      outcome: outcomeOf(matchStatus),
      ...(id !== undefined ? { companyId: id } : {}),
      parentage: a.parentage ?? [],
      familyTree: a.familyTree ?? [],
    };
  });
}

function member(person: OrgChartPerson): OrgChartMember {
  const a = person.attributes;
  return {
    personId: person.id,
    firstName: a.firstName ?? "",
    lastName: a.lastName ?? "",
    title: a.title ?? "",
    department: a.department ?? "",
    jobFunction: a.jobFunction ?? "",
    tier: a.orgChartTier ?? NO_TIER,
    subTier: a.orgChartSubTier ?? NO_TIER,
    hasEmail: a.hasEmail ?? false,
    hasDirectPhone: a.hasDirectPhone ?? false,
    ...(a.contactAccuracyScore !== undefined ? { accuracy: a.contactAccuracyScore } : {}),
    companyId: a.companyId ?? "",
    companyName: a.companyName ?? "",
  };
}

/** The body and query of one org-chart page, checked before sending. */
function orgChartRequest(ask: OrgChartAsk, options: OrgChartPageAsk) {
  const body = orgChartBody(ask);
  const query = {
    "page[number]": options.page === undefined ? undefined : String(options.page),
    "page[size]": options.size === undefined ? undefined : String(options.size),
    sort: options.sort,
  };
  const issues = [...validateOrgChartBody(body), ...readOrgChartQuery(query).issues];
  if (issues.length > 0) refuse(issues, operationLabel("enrichOrgChart"));
  return { body, query };
}

export function hierarchyOperations(ctx: ClientContext): HierarchyOperations {
  async function orgChartPage(ask: OrgChartAsk, options: OrgChartPageAsk = {}): Promise<SearchPage<OrgChartMember>> {
    const { body, query } = orgChartRequest(ask, options);
    // The service charges a company once (then it is under management): the table calls a repeat harmless.
    const doc = await callOperation(ctx, "enrichOrgChart", { query, body, ...asked(options) });
    const size = options.size ?? LIMITS.defaultPageSize;
    const page = toSearchPage({ ...doc, data: doc.data.map(member) }, options.page ?? 1, size);
    // Pages are counted from the total and the page size (at most 100), whatever meta.page says.
    return doc.meta ? { ...page, totalPages: Math.min(Math.ceil(page.totalResults / size), LIMITS.maxPageNumber) } : page;
  }

  return {
    async enrichHierarchy(inputs, options = {}) {
      const body = hierarchyBody(inputs, options.outputFields);
      const issues = validateHierarchyBody(body);
      if (issues.length > 0) refuse(issues, operationLabel("enrichCorporateHierarchy"));
      return hierarchyAnswers(inputs, await callOperation(ctx, "enrichCorporateHierarchy", { body, ...asked(options) }));
    },

    orgChartPage,

    async orgChart(ask, options = {}) {
      const pageSize = options.pageSize ?? ORG_CHART_MAX_PAGE_SIZE;
      orgChartRequest(ask, { size: pageSize, ...(options.sort ? { sort: options.sort } : {}) });
      const people: OrgChartMember[] = [];
      const pages = iteratePages<OrgChartMember>(
        (page, size, signal) =>
          orgChartPage(ask, {
            page,
            size,
            signal,
            ...(options.sort ? { sort: options.sort } : {}),
            ...(options.priority ? { priority: options.priority } : {}),
          }),
        { pageSize, window: ctx.concurrency, ...withSignal(options.signal) },
      );
      for await (const page of pages) {
        people.push(...page.items);
        options.onPage?.(people.length, page.progress.totalResults);
      }
      return people;
    },

    async enrichLookup(entity, fieldType, options = {}) {
      if (!Object.hasOwn(ACCOUNT_LOOKUP_ENTITIES, entity) || (fieldType !== "input" && fieldType !== "output")) {
        refuse(
          [
            {
              parameter: "filter[entity]",
              label: "Entity",
              rule: "enum",
              code: ERROR_CODES.invalidValue,
              message: `No enrich lookup for ${entity} ${fieldType} fields.`,
            },
          ],
          operationLabel("lookupEnrich"),
        );
      }
      const doc = await callOperation(ctx, "lookupEnrich", { query: { "filter[entity]": entity, "filter[fieldType]": fieldType }, ...asked(options) });
      return doc.data.map(({ attributes: a }) => ({
        fieldName: a.fieldName,
        description: a.description,
        ...(a.accessGranted !== undefined ? { accessGranted: a.accessGranted } : {}),
      }));
    },
  };
}

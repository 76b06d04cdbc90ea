// The first page of a search, compact: total count, a readable list, paging. Every value is
// rendered as text by React (never as HTML); a website becomes a link only for http(s).
import { Fragment } from "react";
import { makeStyles, mergeClasses, tokens } from "@fluentui/react-components";
import { LIMITS, type CompanyItem, type ContactItem } from "../../core/contract/index.js";
import type { SearchKind } from "../../core/sheet/index.js";
import { PreviewPaging, SafeLink } from "./PreviewParts.js";

// Three columns fit a 320 px pane: the company (name, website, place) takes the rest of the
// width; the numbers keep a fixed width and never wrap. A contact's name and job title share one
// column and the company has the other, wide enough that company names wrap between words. A website shows as its bare domain at
// the text's size and breaks only where it must (a domain longer than the column).
const useStyles = makeStyles({
  table: { width: "100%", borderCollapse: "collapse", fontSize: tokens.fontSizeBase200, tableLayout: "fixed" },
  // Text wraps between words; only a word longer than its column breaks.
  cell: { textAlign: "left", padding: "4px", borderBottom: `1px solid ${tokens.colorNeutralStroke2}`, verticalAlign: "top", overflowWrap: "break-word" },
  number: { textAlign: "right", padding: "4px", borderBottom: `1px solid ${tokens.colorNeutralStroke2}`, verticalAlign: "top", whiteSpace: "nowrap" },
  head: { textAlign: "right", padding: "4px", borderBottom: `1px solid ${tokens.colorNeutralStroke2}`, verticalAlign: "bottom", whiteSpace: "normal" },
  // Wide enough for 9,999,999 ($K), 999,999 employees and the word "Employees" at the table's size.
  wide: { width: "64px" },
  narrow: { width: "68px" },
  link: { overflowWrap: "anywhere", fontSize: tokens.fontSizeBase200 },
  place: { display: "block", color: tokens.colorNeutralForeground3 },
});

export interface PreviewPage {
  kind: SearchKind;
  items: (CompanyItem | ContactItem)[];
  totalResults: number;
  pageNumber: number;
  totalPages: number;
}

/** Results one search can reach (100 pages of 100). */
const REACHABLE = LIMITS.maxPageNumber * LIMITS.maxPageSize;

const fmt = (value: unknown) => {
  if (value === undefined || value === null || value === "") return "";
  const n = typeof value === "number" ? value : /^\s*-?\d+(\.\d+)?\s*$/.test(String(value)) ? Number(value) : NaN;
  return Number.isFinite(n) ? n.toLocaleString("en-US") : String(value);
};
/** "acme.com" for "https://www.acme.com/" (the link keeps the whole address). */
export const bareDomain = (website: string) =>
  website
    .replace(/^[a-z][a-z0-9+.-]*:\/\//i, "")
    .replace(/^www\./i, "")
    .replace(/\/+$/, "");
/** A domain that may break after its dots ("stellarrock.<wbr>com"), not inside a word, when the column is narrow. */
function DomainText({ domain }: { domain: string }) {
  const parts = domain.split(/(?<=\.)/);
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  );
}
const place = (a: { city?: unknown; state?: unknown; country?: unknown }) =>
  [a.city, a.state, a.country === "United States" ? undefined : a.country].filter((x) => typeof x === "string" && x !== "").join(", ");

export function ResultsPreview({ page, busy, onPage }: { page: PreviewPage; busy: boolean; onPage(n: number): void }) {
  const styles = useStyles();
  const one = page.totalResults === 1;
  const noun = page.kind === "company" ? (one ? "company" : "companies") : one ? "contact" : "contacts";
  const pages = Math.min(page.totalPages, LIMITS.maxPageNumber);
  return (
    <section aria-label="Preview">
      <p role="status">
        {page.totalResults.toLocaleString("en-US")} {noun} {one ? "matches" : "match"}.
        {pages > 1 ? ` Page ${page.pageNumber} of ${page.totalPages.toLocaleString("en-US")}.` : ""}
        {page.totalResults > REACHABLE
          ? ` One search reaches ${REACHABLE.toLocaleString("en-US")} results: Insert splits this one into parts to import them all, and shows you the plan first.`
          : ""}
      </p>
      {page.items.length > 0 && (
        <table className={styles.table} data-testid="preview-table">
          <thead>
            {page.kind === "company" ? (
              <tr>
                <th className={styles.cell} scope="col">
                  Company, website, place
                </th>
                <th className={mergeClasses(styles.head, styles.wide)} scope="col">
                  Revenue ($K)
                </th>
                <th className={mergeClasses(styles.head, styles.narrow)} scope="col">
                  Employees
                </th>
              </tr>
            ) : (
              <tr>
                <th className={styles.cell} scope="col">
                  Name, job title
                </th>
                <th className={styles.cell} scope="col">
                  Company
                </th>
                <th className={mergeClasses(styles.head, styles.narrow)} scope="col">
                  Accuracy
                </th>
              </tr>
            )}
          </thead>
          <tbody>
            {page.items.map((item) => {
              if (page.kind === "company") {
                const a = (item as CompanyItem).attributes;
                return (
                  <tr key={item.id}>
                    <td className={styles.cell}>
                      <span data-field="name">{a.name ?? ""}</span>
                      <br />
                      <SafeLink skipTab className={styles.link} href={a.website} label={<DomainText domain={bareDomain(a.website ?? "")} />} />
                      <span className={styles.place}>{place(a)}</span>
                    </td>
                    <td className={styles.number}>{fmt(a.revenue)}</td>
                    <td className={styles.number}>{fmt(a.employeeCount)}</td>
                  </tr>
                );
              }
              const a = (item as ContactItem).attributes;
              return (
                <tr key={item.id}>
                  <td className={styles.cell}>
                    <span data-field="name">{[a.firstName, a.middleName, a.lastName].filter(Boolean).join(" ")}</span>
                    <span className={styles.place}>{a.jobTitle ?? ""}</span>
                  </td>
                  <td className={styles.cell}>{a.company?.name ?? ""}</td>
                  <td className={styles.number}>{fmt(a.contactAccuracyScore)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <PreviewPaging pageNumber={page.pageNumber} pages={pages} busy={busy} onPage={onPage} />
    </section>
  );
}

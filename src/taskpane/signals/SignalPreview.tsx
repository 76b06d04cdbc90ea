// The first page of a signal search, compact: the count, a readable list (company, what
// happened, when), paging. Values are rendered as text; only http(s) addresses become links.
import { makeStyles, tokens } from "@fluentui/react-components";
import { LIMITS } from "../../core/contract/index.js";
import { flattenSignal, type SignalSearchFamily, type SignalSearchItem } from "../../core/signals/index.js";
import { PreviewPaging, SafeLink as Link } from "../search/PreviewParts.js";
import { SIGNAL_NOUNS } from "./insertSignals.js";

const useStyles = makeStyles({
  table: { width: "100%", borderCollapse: "collapse", fontSize: tokens.fontSizeBase200, tableLayout: "fixed" },
  cell: { textAlign: "left", padding: "4px", borderBottom: `1px solid ${tokens.colorNeutralStroke2}`, verticalAlign: "top", overflowWrap: "anywhere" },
  date: { textAlign: "right", padding: "4px", borderBottom: `1px solid ${tokens.colorNeutralStroke2}`, width: "76px", verticalAlign: "top" },
});

/** The page a preview shows and the search it came from. */
export interface PreviewState {
  items: SignalSearchItem[];
  totalResults: number;
  pageNumber: number;
  totalPages: number;
  filters: Record<string, unknown>;
  sort: string | undefined;
}

const text = (v: unknown) => (typeof v === "string" || typeof v === "number" ? String(v) : "");

const HEADERS: Record<SignalSearchFamily, [string, string]> = {
  intent: ["Company", "Topic and score"],
  scoops: ["Company", "Headline"],
  news: ["Company", "Title"],
};

export function SignalPreview({ family, page, busy, onPage }: { family: SignalSearchFamily; page: PreviewState; busy: boolean; onPage(n: number): void }) {
  const styles = useStyles();
  const pages = Math.min(page.totalPages, LIMITS.maxPageNumber);
  const [first, second] = HEADERS[family];
  return (
    <section aria-label="Preview">
      <p role="status">
        {page.totalResults.toLocaleString("en-US")} {SIGNAL_NOUNS[family]} match.
        {pages > 1 ? ` Page ${page.pageNumber} of ${pages.toLocaleString("en-US")}.` : ""}
      </p>
      {page.items.length > 0 && (
        <table className={styles.table} data-testid="signal-preview-table">
          <thead>
            <tr>
              <th className={styles.cell} scope="col">
                {first}
              </th>
              <th className={styles.cell} scope="col">
                {second}
              </th>
              <th className={styles.date} scope="col">
                Date
              </th>
            </tr>
          </thead>
          <tbody>
            {page.items.map((item) => {
              const a = flattenSignal(family, item).attributes;
              return (
                <tr key={item.id}>
                  <td className={styles.cell}>{family === "intent" ? <Link href={a.companyWebsite} label={text(a.companyName)} /> : text(a.companyName)}</td>
                  <td className={styles.cell}>
                    {family === "intent" ? (
                      `${text(a.topic)}: ${text(a.signalScore)} (${text(a.audienceStrength)})`
                    ) : (
                      <Link href={family === "scoops" ? a.link : a.url} label={text(family === "scoops" ? a.linkText : a.title)} />
                    )}
                  </td>
                  <td className={styles.date}>{text(family === "intent" ? a.signalDate : family === "scoops" ? a.publishedDate : a.pageDate)}</td>
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

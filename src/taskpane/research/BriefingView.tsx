// A briefing (markdown from the service) rendered as formatted text with react-markdown: raw HTML
// in it is dropped, never rendered (skipHtml, no rehype-raw), images are not loaded, and a link
// keeps only an http(s) address (anything else, javascript: or data:, loses its link) and opens
// in a new window. Everything wraps inside the 320-350 px pane. Nesting deeper than 8 levels is
// flattened before rendering (flattenNesting.ts), and the briefing renders inside an error
// boundary: a briefing that still fails to render costs only its own place, never the pane.
import Markdown, { type Components } from "react-markdown";
import { makeStyles } from "@fluentui/react-components";
import { httpUrl } from "../../core/sheet/httpUrl.js";
import { ErrorBoundary } from "../ErrorBoundary.js";
import { flattenNestingText, remarkFlattenNesting } from "./flattenNesting.js";

const useStyles = makeStyles({
  body: {
    overflowWrap: "anywhere",
    minWidth: 0,
    "& pre": { whiteSpace: "pre-wrap" },
    "& table": { tableLayout: "fixed", width: "100%", borderCollapse: "collapse" },
    "& h1, & h2, & h3": { fontSize: "1.05em", margin: "12px 0 4px" },
    "& ul, & ol": { paddingLeft: "20px" },
  },
  fetched: { margin: "8px 0 0", fontSize: "12px" },
});

/** The address a briefing's link may keep: http(s) only, else none. */
export function safeHref(url: string): string {
  return httpUrl(url)?.href ?? "";
}

const components: Components = {
  a: ({ href, children }) =>
    href ? (
      <a href={href} target="_blank" rel="noopener noreferrer">
        {children}
      </a>
    ) : (
      <span>{children}</span>
    ),
};

/** `fetchedAt` (ms since the epoch) is said above it: a briefing fetched before is reused, so its date tells how fresh it is. */
export function BriefingView({ markdown, label, fetchedAt }: { markdown: string; label: string; fetchedAt?: number }) {
  const styles = useStyles();
  return (
    <article className={styles.body} aria-label={label} data-testid="briefing">
      {fetchedAt !== undefined && <p className={styles.fetched}>Fetched {new Date(fetchedAt).toISOString().slice(0, 10)}</p>}
      <ErrorBoundary label="the briefing">
        <Markdown skipHtml disallowedElements={["img"]} unwrapDisallowed urlTransform={safeHref} components={components} remarkPlugins={[remarkFlattenNesting]}>
          {flattenNestingText(markdown)}
        </Markdown>
      </ErrorBoundary>
    </article>
  );
}

// Pieces every preview shares: the previous/next paging row and a link that is a link only
// for an http(s) address (anything else is shown as plain text).
import type { ReactNode } from "react";
import { Button, makeStyles } from "@fluentui/react-components";
import { hyperlinkAddress } from "../../core/sheet/index.js";

const useStyles = makeStyles({
  paging: { display: "flex", gap: "8px", alignItems: "center", marginTop: "8px" },
});

/** Previous/next buttons for a preview, shown only when there is more than one page. */
export function PreviewPaging({ pageNumber, pages, busy, onPage }: { pageNumber: number; pages: number; busy: boolean; onPage(n: number): void }) {
  const styles = useStyles();
  if (pages <= 1) return null;
  return (
    <div className={styles.paging}>
      <Button disabled={busy || pageNumber <= 1} onClick={() => onPage(pageNumber - 1)}>
        Previous page
      </Button>
      <Button disabled={busy || pageNumber >= pages} onClick={() => onPage(pageNumber + 1)}>
        Next page
      </Button>
    </div>
  );
}

/**
 * `label` as a link to `href` when that is an http(s) address, else as text. `skipTab`: not a Tab
 * stop (a preview's many links would otherwise stand between the results and Insert).
 */
export function SafeLink({ href, label, className, skipTab }: { href: unknown; label: ReactNode; className?: string; skipTab?: boolean }) {
  const address = typeof href === "string" ? hyperlinkAddress(href) : undefined;
  return address ? (
    <a className={className} href={address} target="_blank" rel="noopener noreferrer" {...(skipTab ? { tabIndex: -1 } : {})}>
      {label}
    </a>
  ) : (
    <span className={className}>{label}</span>
  );
}

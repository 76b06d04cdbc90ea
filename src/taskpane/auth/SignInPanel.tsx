// Who is signed in, against which environment, and sign-in / sign-out. Signed out, it is the
// sign-in screen (with why: expired, cancelled, denied); signed in, a one-line account header.
import { lazy, Suspense, useState } from "react";
import { Button, makeStyles, mergeClasses, tokens } from "@fluentui/react-components";
import type { TokenSource } from "../../auth/index.js";
import type { EnvironmentSettings } from "../../core/settings/environment.js";
import type { NoticeBarProps } from "./NoticeBar.js";
import { errorText } from "../errorText.js";
import { LoadingSpinner } from "../LoadingSpinner.js";
import { useAccount } from "./useAccount.js";

const NoticeBar = lazy(() => import("./NoticeBar.js").then((m) => ({ default: m.NoticeBar })));

/** The notice as a message bar; plain text with the same role and id while that loads. */
function Notice({ intent, id, children }: NoticeBarProps) {
  const fallback = (
    <div role="alert" style={{ overflowWrap: "anywhere" }} {...(id ? { id } : {})}>
      {children}
    </div>
  );
  return (
    <Suspense fallback={fallback}>
      <NoticeBar intent={intent} {...(id ? { id } : {})}>
        {children}
      </NoticeBar>
    </Suspense>
  );
}

const useStyles = makeStyles({
  header: {
    display: "flex",
    alignItems: "center",
    gap: tokens.spacingHorizontalS,
    justifyContent: "space-between",
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalS}`,
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  who: { display: "flex", flexDirection: "column", minWidth: 0 },
  ellipsis: { overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" },
  screen: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalM, padding: tokens.spacingHorizontalL },
  // Fluent's Text typography, without loading Text on the first screen.
  text: {
    fontFamily: tokens.fontFamilyBase,
    fontSize: tokens.fontSizeBase300,
    lineHeight: tokens.lineHeightBase300,
    fontWeight: tokens.fontWeightRegular,
    textAlign: "start",
    display: "inline",
    whiteSpace: "normal",
    overflow: "visible",
    textOverflow: "clip",
  },
  small: { fontSize: tokens.fontSizeBase200, lineHeight: tokens.lineHeightBase200 },
  large: { fontSize: tokens.fontSizeBase500, lineHeight: tokens.lineHeightBase500 },
  semibold: { fontWeight: tokens.fontWeightSemibold },
});

export interface SignInPanelProps {
  tokenSource: Pick<TokenSource, "account" | "onChange" | "signIn" | "signOut">;
  environment: Pick<EnvironmentSettings, "label" | "apiBaseUrl">;
  /** A message to show on the sign-in screen (e.g. from a request that failed with 401). */
  message?: string;
}

/** The service's message with its reference; a plain "try again" for anything else (the sign-in window's own errors). */
function userMessageOf(error: unknown): string {
  if (typeof error === "object" && error !== null && "userMessage" in error && typeof error.userMessage === "string") {
    return errorText(error);
  }
  return "Sign-in did not finish. Try again.";
}

export function SignInPanel({ tokenSource, environment, message }: SignInPanelProps) {
  const styles = useStyles();
  const { account, reason } = useAccount(tokenSource);
  const [busy, setBusy] = useState<"signIn" | "signOut" | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const run = (what: "signIn" | "signOut") => {
    setBusy(what);
    setProblem(null);
    tokenSource[what]()
      .then(
        () => undefined,
        (error: unknown) => setProblem(userMessageOf(error)),
      )
      .finally(() => setBusy(null));
  };

  if (account) {
    return (
      <header className={styles.header} aria-label="Account">
        <div className={styles.who}>
          <span className={mergeClasses(styles.text, styles.semibold, styles.ellipsis)} id="signed-in-account">
            Signed in as {account.name || account.username}
          </span>
          <span className={mergeClasses(styles.text, styles.small, styles.ellipsis)}>
            {account.username} · <span id="signed-in-environment">{environment.label}</span>
          </span>
        </div>
        <Button appearance="secondary" size="small" onClick={() => run("signOut")} disabled={busy !== null}>
          {busy === "signOut" ? "Signing out…" : "Sign out"}
        </Button>
        {problem && <Notice intent="error">{problem}</Notice>}
      </header>
    );
  }

  const notice =
    problem ??
    (reason === "expired"
      ? "Your sign-in has ended: the sign-in server no longer accepts it (it expired, or the server restarted). Sign in again to continue."
      : null) ??
    message ??
    null;

  return (
    <section className={styles.screen} aria-labelledby="sign-in-heading">
      <h2 className={mergeClasses(styles.text, styles.large, styles.semibold)} id="sign-in-heading">
        Sign in
      </h2>
      <span className={styles.text}>
        Sign in to <strong>{environment.label}</strong> ({environment.apiBaseUrl}) to search companies and contacts and enrich your sheets.
      </span>
      {notice && (
        <Notice intent={problem || reason === "expired" ? "warning" : "info"} id="sign-in-message">
          {notice}
        </Notice>
      )}
      <div>
        <Button appearance="primary" onClick={() => run("signIn")} disabled={busy !== null}>
          {busy === "signIn" ? "Signing in…" : "Sign in"}
        </Button>
        {busy === "signIn" && <LoadingSpinner label="Waiting for the sign-in window" />}
      </div>
    </section>
  );
}

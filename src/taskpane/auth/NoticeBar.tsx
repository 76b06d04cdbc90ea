// A sign-in notice (expired, cancelled, failed) as a Fluent message bar. Loaded with import()
// by SignInPanel: most first screens show no notice, so the first paint does without it. It
// wraps like every message of the pane (multiline layout; long addresses break), so a long
// notice never widens a 320 px pane.
import type { ReactNode } from "react";
import { MessageBar, MessageBarBody, makeStyles } from "@fluentui/react-components";

const useStyles = makeStyles({
  body: { overflowWrap: "anywhere", minWidth: 0 },
});

export interface NoticeBarProps {
  intent: "error" | "warning" | "info";
  /** The id of the text, for aria references and tests. */
  id?: string;
  children: ReactNode;
}

export function NoticeBar({ intent, id, children }: NoticeBarProps) {
  const styles = useStyles();
  return (
    <MessageBar intent={intent} layout="multiline">
      <MessageBarBody className={styles.body} role="alert" {...(id ? { id } : {})}>
        {children}
      </MessageBarBody>
    </MessageBar>
  );
}

// A message in the task pane (an outcome, a warning, an error) as a Fluent message bar that
// always wraps: the pane is 320-350 px wide, and Fluent's single-line layout cuts long text.
import type { ReactNode } from "react";
import { MessageBar, MessageBarBody, makeStyles } from "@fluentui/react-components";

const useStyles = makeStyles({
  // Long words (addresses, table names) break too, so nothing pushes the pane sideways.
  body: { overflowWrap: "anywhere", minWidth: 0 },
});

export interface NoticeProps {
  intent: "success" | "warning" | "error" | "info";
  /** "status" for outcomes, "alert" for problems that need attention now. */
  role?: "status" | "alert";
  children: ReactNode;
  /** Actions shown under the text (e.g. "Try again"). */
  actions?: ReactNode;
  testId?: string;
}

export function Notice({ intent, role, children, actions, testId }: NoticeProps) {
  const styles = useStyles();
  return (
    <MessageBar intent={intent} layout="multiline" {...(role ? { role } : {})} {...(testId ? { "data-testid": testId } : {})}>
      <MessageBarBody className={styles.body}>
        {children}
        {actions && <div>{actions}</div>}
      </MessageBarBody>
    </MessageBar>
  );
}

// What the account's plan does not include, said where it would be used, before anyone tries it:
// the reason in words (core/plan), small enough for a 320 px pane.
import { makeStyles, tokens } from "@fluentui/react-components";
import type { Allowance } from "../core/plan/index.js";

const useStyles = makeStyles({
  note: {
    color: tokens.colorNeutralForeground3,
    fontSize: tokens.fontSizeBase200,
    lineHeight: tokens.lineHeightBase200,
    margin: "4px 0",
    overflowWrap: "anywhere",
  },
});

/** The plan's reason, when it refuses; nothing when it allows. */
export function NotInPlan({ allowance, id }: { allowance: Allowance; id?: string }) {
  const styles = useStyles();
  if (allowance.allowed) return null;
  return (
    <p className={styles.note} role="note" data-testid="not-in-plan" {...(id ? { id } : {})}>
      {allowance.reason}
    </p>
  );
}

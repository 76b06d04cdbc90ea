// A part of the pane that fails to render shows a short message in its own place, with a way to
// go on, instead of blanking the whole pane (React unmounts everything above an uncaught render
// error). Every tab and panel renders inside one, so one broken answer from the service (a
// briefing nested too deep, a value of an unexpected shape) costs only the part that shows it.
import { Component, type ErrorInfo, type ReactNode } from "react";
// The message uses only what the first screen already loads (Button, makeStyles, tokens), not
// Fluent's message bar: the boundary is on the first screen, around the sign-in panel too.
import { Button, makeStyles, tokens } from "@fluentui/react-components";

export interface ErrorBoundaryProps {
  /** What the part shows, in the user's words ("the briefing", "Research"): the message names it. */
  label: string;
  children?: ReactNode;
}

interface ErrorBoundaryState {
  failed: boolean;
}

const useStyles = makeStyles({
  box: {
    padding: "8px",
    borderRadius: tokens.borderRadiusMedium,
    border: `1px solid ${tokens.colorPaletteRedBorder1}`,
    backgroundColor: tokens.colorPaletteRedBackground1,
    overflowWrap: "anywhere",
  },
  text: { margin: "0 0 8px" },
});

/** The message a failed part shows in its place. */
export function PartProblem({ label, onRetry }: { label: string; onRetry(): void }) {
  const styles = useStyles();
  return (
    <div className={styles.box} role="alert" data-testid="part-problem">
      <p className={styles.text}>Something in {label} could not be shown. The rest of the pane still works: try again, or go on with another tab.</p>
      <Button size="small" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}

export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { failed: false };

  static getDerivedStateFromError(): ErrorBoundaryState {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    // Only the kind of error and where: its text may quote service data, which stays out of the console.
    const name = error instanceof Error ? error.name : typeof error;
    console.error(`A part of the pane (${this.props.label}) failed to render: ${name}`, info.componentStack?.split("\n", 3).join("\n") ?? "");
  }

  /** Shows the part again (its children render anew). */
  readonly retry = (): void => this.setState({ failed: false });

  override render(): ReactNode {
    if (this.state.failed) return <PartProblem label={this.props.label} onRetry={this.retry} />;
    return this.props.children ?? null;
  }
}

// A sign-in notice (expired, cancelled, failed) as a Fluent message bar. Loaded with import()
// by SignInPanel: most first screens show no notice, so the first paint does without it.
import type { ReactNode } from "react";
import { MessageBar, MessageBarBody } from "@fluentui/react-components";

export interface NoticeBarProps {
  intent: "error" | "warning" | "info";
  /** The id of the text, for aria references and tests. */
  id?: string;
  children: ReactNode;
}

export function NoticeBar({ intent, id, children }: NoticeBarProps) {
  return (
    <MessageBar intent={intent}>
      <MessageBarBody role="alert" {...(id ? { id } : {})}>
        {children}
      </MessageBarBody>
    </MessageBar>
  );
}

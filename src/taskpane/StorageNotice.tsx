// What could not be kept on this computer (a full or blocked storage for add-ins), said once per
// kind of data by the page's stores (core/storage/storageNotices.ts) and shown here until the
// user closes it.
import { useEffect, useState } from "react";
import { Button } from "@fluentui/react-components";
import { STORAGE_PROBLEM_TEXT, type StorageNotices, type StorageProblem } from "../core/storage/storageNotices.js";
import { Notice } from "./Notice.js";

export function StorageNotice({ notices }: { notices: StorageNotices }) {
  const [shown, setShown] = useState<StorageProblem[]>(() => notices.current());
  useEffect(() => {
    setShown(notices.current());
    return notices.subscribe((problem) => setShown((now) => (now.includes(problem) ? now : [...now, problem])));
  }, [notices]);
  return (
    <>
      {shown.map((problem) => (
        <Notice
          key={problem}
          intent="warning"
          role="alert"
          testId={`storage-notice-${problem}`}
          actions={
            <Button size="small" appearance="transparent" onClick={() => setShown((now) => now.filter((p) => p !== problem))}>
              Close
            </Button>
          }
        >
          {STORAGE_PROBLEM_TEXT[problem]}
        </Notice>
      ))}
    </>
  );
}

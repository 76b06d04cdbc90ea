// Whether the page's stores have told of a storage problem (core/storage/storageNotices.ts): the
// first screen asks this without loading the notice itself, which comes with import() when needed.
import { useEffect, useState } from "react";
import type { StorageNotices } from "../core/storage/storageNotices.js";

export function useHasStorageProblems(notices: StorageNotices): boolean {
  const [has, setHas] = useState(() => notices.current().length > 0);
  useEffect(() => {
    setHas(notices.current().length > 0);
    return notices.subscribe(() => setHas(true));
  }, [notices]);
  return has;
}

// Today's count of new records against the user's daily cap, the cap itself, and clearing the
// enrichment cache: the pipeline's spend guard and cache as the user sees and sets them.
import { useMemo } from "react";
import { Button, Text } from "@fluentui/react-components";
import type { EnrichmentEngine } from "../../core/enrich/index.js";
import { errorText } from "../errorText.js";
import { DailyCapRow, useDailyCap } from "../DailyCap.js";

const count = (n: number) => n.toLocaleString("en-US");

/** `version` changes after each run, so the count shown follows what the run used. */
export function SpendControls({ engine, busy, version }: { engine: EnrichmentEngine; busy: boolean; version: unknown }) {
  const source = useMemo(() => ({ status: () => engine.spendStatus(), setCap: (cap: number) => engine.setDailyNewRecordCap(cap) }), [engine]);
  const cap = useDailyCap(source, "new records", version);
  const { today: spend, setMessage } = cap;

  const clearCache = async () => {
    try {
      await engine.clearCache();
      setMessage("Cache cleared: the next calculation asks the service again.");
    } catch (error) {
      setMessage(`Could not clear the cache: ${errorText(error)}`);
    }
  };

  return (
    <fieldset>
      <legend>Spending and cache</legend>
      {spend && (
        <Text as="p">
          Today: {count(spend.used)} of {count(spend.cap)} new records used. Records already under management cost nothing and do not count.
        </Text>
      )}
      <DailyCapRow label="New records per day" cap={cap}>
        <Button onClick={() => void clearCache()} disabled={busy}>
          Clear cache
        </Button>
      </DailyCapRow>
    </fieldset>
  );
}

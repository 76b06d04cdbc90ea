// Today's count of new records against the user's daily cap, the cap itself, and clearing the
// enrichment cache: the pipeline's spend guard and cache as the user sees and sets them.
import { useEffect, useState } from "react";
import { Button, Field, Input, Text, makeStyles } from "@fluentui/react-components";
import type { EnrichmentEngine, SpendState } from "../../core/enrich/index.js";
import { errorText } from "../errorText.js";

const useStyles = makeStyles({
  row: { display: "flex", gap: "8px", marginTop: "8px", alignItems: "end", flexWrap: "wrap" },
});

const count = (n: number) => n.toLocaleString("en-US");

/** `version` changes after each run, so the count shown follows what the run used. */
export function SpendControls({ engine, busy, version }: { engine: EnrichmentEngine; busy: boolean; version: unknown }) {
  const styles = useStyles();
  const [spend, setSpend] = useState<SpendState | undefined>();
  const [capText, setCapText] = useState("");
  const [message, setMessage] = useState<string | undefined>();

  /** Reads today's count; the cap's box is filled only when asked (not while the user may be typing in it). */
  const refresh = async (fillCap: boolean) => {
    const status = await engine.spendStatus();
    setSpend(status);
    if (fillCap) setCapText(String(status.cap));
  };

  useEffect(() => {
    refresh(true).catch((error: unknown) => setMessage(`Could not read today's count: ${errorText(error)}`));
  }, [engine]);
  useEffect(() => {
    refresh(false).catch((error: unknown) => setMessage(`Could not read today's count: ${errorText(error)}`));
  }, [version]);

  const saveCap = async () => {
    const cap = Number(capText);
    if (capText.trim() === "" || !Number.isSafeInteger(cap) || cap < 0) {
      setMessage("Enter a whole number of 0 or more.");
      return;
    }
    try {
      await engine.setDailyNewRecordCap(cap);
      await refresh(true);
      setMessage(`Saved: up to ${count(cap)} new records a day.`);
    } catch (error) {
      setMessage(`Could not save: ${errorText(error)}`);
    }
  };

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
      <div className={styles.row}>
        <Field label="New records per day">
          <Input type="number" min={0} value={capText} onChange={(_e, data) => setCapText(data.value)} />
        </Field>
        <Button onClick={() => void saveCap()}>Save</Button>
        <Button onClick={() => void clearCache()} disabled={busy}>
          Clear cache
        </Button>
      </div>
      {message && (
        <Text as="p" role="status">
          {message}
        </Text>
      )}
    </fieldset>
  );
}

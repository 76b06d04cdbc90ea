// The user's own daily limit on what runs may spend (new records in Enrich, AI action credits in
// Research): today's count, read again after each run (`version`), and the limit's box with Save
// (DailyCapRow).
// The box is filled when the count is first read and after a save, never while the user may be
// typing in it.
import { useEffect, useState, type ReactNode } from "react";
import { Button, Field, Input, Text, makeStyles } from "@fluentui/react-components";
import type { SpendState } from "../core/enrich/index.js";
import { errorText } from "./errorText.js";

export interface DailyCapSource {
  status(): Promise<SpendState>;
  setCap(cap: number): Promise<void>;
}

const count = (n: number) => n.toLocaleString("en-US");

/** `source` keeps its identity between renders (memoised on its owner); `unit` names what is counted ("new records"). */
export function useDailyCap(source: DailyCapSource, unit: string, version: unknown) {
  const [today, setToday] = useState<SpendState | undefined>();
  const [capText, setCapText] = useState("");
  const [message, setMessage] = useState<string | undefined>();

  const refresh = async (fillCap: boolean) => {
    const status = await source.status();
    setToday(status);
    if (fillCap) setCapText(String(status.cap));
  };
  const readFailed = (error: unknown) => setMessage(`Could not read today's count: ${errorText(error)}`);
  useEffect(() => void refresh(true).catch(readFailed), [source]);
  useEffect(() => void refresh(false).catch(readFailed), [version]);

  const save = async () => {
    const cap = Number(capText);
    if (capText.trim() === "" || !Number.isSafeInteger(cap) || cap < 0) return setMessage("Enter a whole number of 0 or more.");
    try {
      await source.setCap(cap);
      await refresh(true);
      setMessage(`Saved: up to ${count(cap)} ${unit} a day.`);
    } catch (error) {
      setMessage(`Could not save: ${errorText(error)}`);
    }
  };

  return { today, capText, setCapText, message, setMessage, save };
}

const useStyles = makeStyles({
  row: { display: "flex", gap: "8px", marginTop: "8px", alignItems: "end", flexWrap: "wrap" },
});

/** The limit's box and Save (and `children`, more buttons beside them), then what the last action said. */
export function DailyCapRow({ label, cap, children }: { label: string; cap: ReturnType<typeof useDailyCap>; children?: ReactNode }) {
  const styles = useStyles();
  return (
    <>
      <div className={styles.row}>
        <Field label={label}>
          <Input type="number" min={0} value={cap.capText} onChange={(_, d) => cap.setCapText(d.value)} />
        </Field>
        <Button onClick={() => void cap.save()}>Save</Button>
        {children}
      </div>
      {cap.message && (
        <Text as="p" role="status">
          {cap.message}
        </Text>
      )}
    </>
  );
}

// Enrich selection's signal columns for a column of company ids (docs/signals.md): intent scores
// on the topics typed here, the latest scoop, the latest news, the technologies in use.
import { Field, Input, Radio, RadioGroup } from "@fluentui/react-components";
import { SIGNAL_RECORD_KINDS } from "../../core/contract/index.js";
import type { EntityKind } from "../../core/enrich/index.js";

const LABELS: Record<(typeof SIGNAL_RECORD_KINDS)[number], string> = { intent: "Intent scores", scoops: "Scoops", news: "News", technologies: "Technologies" };
const isSignal = (kind: EntityKind) => (SIGNAL_RECORD_KINDS as readonly string[]).includes(kind);

export function SignalKindChoice({
  value,
  busy,
  onChange,
  onTopics,
}: {
  value: EntityKind;
  busy: boolean;
  onChange(kind: EntityKind): void;
  onTopics(topics: string[]): void;
}) {
  return (
    <>
      <RadioGroup
        value={isSignal(value) ? value : ""}
        onChange={(_e, data) => onChange(data.value as EntityKind)}
        disabled={busy}
        aria-label="Signals of the companies"
      >
        {SIGNAL_RECORD_KINDS.map((kind) => (
          <Radio key={kind} value={kind} label={`${LABELS[kind]} of the companies`} />
        ))}
      </RadioGroup>
      {value === "intent" && (
        <Field label="Topics" hint="Comma-separated, e.g. Cloud Security, CRM Software (up to 50): one score column each">
          <Input
            disabled={busy}
            onChange={(_e, data) =>
              onTopics(
                [
                  ...new Set(
                    data.value
                      .split(",")
                      .map((t) => t.trim())
                      .filter(Boolean),
                  ),
                ].slice(0, 50),
              )
            }
          />
        </Field>
      )}
    </>
  );
}

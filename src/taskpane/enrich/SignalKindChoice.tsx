// Enrich selection's signal columns for a column of company ids (docs/signals.md): intent scores
// on the topics typed here, the latest scoop, the latest news, the technologies in use, the
// hashtags: every kind declared as keyed by company, with its declaration's label.
import { Field, Input, Radio, RadioGroup } from "@fluentui/react-components";
import { declaredKinds, type EntityKind } from "../../core/enrich/index.js";
import { kindCapability, type Allowance } from "../../core/plan/index.js";
import { usePlanAllows } from "../entitledFields.js";
import { NotInPlan } from "../NotInPlan.js";

/** The declared kinds keyed by company (read when shown, so a kind declared later is listed). */
const companyKinds = () => declaredKinds().filter((k) => k.matchKind === "company" && k.kind !== "company");
const isSignal = (kind: EntityKind) => companyKinds().some((k) => k.kind === kind);

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
  // A kind the account's plan lacks is greyed, its reason below.
  const allowed = usePlanAllows();
  const allowance = (kind: string): Allowance => {
    const capability = kindCapability(kind);
    return capability ? allowed(capability) : { allowed: true };
  };
  return (
    <>
      <RadioGroup
        value={isSignal(value) ? value : ""}
        onChange={(_e, data) => onChange(data.value as EntityKind)}
        disabled={busy}
        aria-label="Signals of the companies"
      >
        {companyKinds().map(({ kind, label }) => (
          <Radio key={kind} value={kind} label={`${label} of the companies`} disabled={!allowance(kind).allowed} />
        ))}
      </RadioGroup>
      {companyKinds().map(({ kind }) => (
        <NotInPlan key={kind} allowance={allowance(kind)} />
      ))}
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

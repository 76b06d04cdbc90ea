// Where the add-in talks to: sandbox, production or custom endpoints. Saved per user (their own
// storage), never in the workbook.
import { useState } from "react";
import { Button, Field, Input, Radio, RadioGroup } from "@fluentui/react-components";
import { PRODUCTION_ENVIRONMENT, SANDBOX_ENVIRONMENT, type EnvironmentSettings } from "../../core/settings/environment.js";
import { errorText } from "../errorText.js";
import { useServices } from "../services.js";

export function SettingsTab() {
  const services = useServices();
  const [env, setEnv] = useState<EnvironmentSettings>(services.runtime.environment);
  const [problems, setProblems] = useState<string[]>([]);
  const [message, setMessage] = useState<string | undefined>();

  const choose = (kind: string) => {
    if (kind === "sandbox") setEnv(SANDBOX_ENVIRONMENT);
    else if (kind === "production") setEnv(PRODUCTION_ENVIRONMENT);
    else setEnv({ ...env, kind: "custom", label: "Custom" });
  };
  const edit = (change: Partial<EnvironmentSettings>, signIn?: Partial<EnvironmentSettings["signIn"]>) =>
    setEnv((e) => ({ ...e, ...change, kind: e.kind === "sandbox" ? "custom" : e.kind, signIn: { ...e.signIn, ...signIn } }));

  const save = async () => {
    setMessage(undefined);
    try {
      const found = await services.settings.save({ environment: env });
      setProblems(found);
      if (found.length === 0) {
        services.changeEnvironment(env);
        setMessage(`Saved for you only (not in the workbook). Now using ${env.label}.`);
      }
    } catch (error) {
      setProblems([errorText(error)]);
    }
  };

  return (
    <section aria-label="Settings">
      {services.environmentOverridden && <p>The page address sets the data API for this session ({services.runtime.environment.apiBaseUrl}).</p>}
      <RadioGroup value={env.kind} onChange={(_, d) => choose(d.value)} aria-label="Environment">
        <Radio value="sandbox" label="Sandbox (local, no account needed)" />
        <Radio value="production" label="Production service" />
        <Radio value="custom" label="Custom endpoints" />
      </RadioGroup>
      <Field label="Data API address">
        <Input value={env.apiBaseUrl} onChange={(_, d) => edit({ apiBaseUrl: d.value })} />
      </Field>
      <Field label="Audience API address">
        <Input value={env.audiencesBaseUrl} onChange={(_, d) => edit({ audiencesBaseUrl: d.value })} />
      </Field>
      <Field label="Sign-in authority">
        <Input value={env.signIn.authority} onChange={(_, d) => edit({}, { authority: d.value })} />
      </Field>
      <Field label="Client id">
        <Input value={env.signIn.clientId} onChange={(_, d) => edit({}, { clientId: d.value })} />
      </Field>
      <Field label="Token endpoint (optional)" hint="Your organization's token broker, when it has one">
        <Input
          value={env.signIn.tokenEndpoint ?? ""}
          onChange={(_, d) => {
            const { tokenEndpoint: _old, ...rest } = env.signIn;
            setEnv({ ...env, signIn: d.value ? { ...rest, tokenEndpoint: d.value } : rest });
          }}
        />
      </Field>
      {problems.length > 0 && (
        <ul role="alert">
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
      <Button appearance="primary" onClick={() => void save()}>
        Save settings
      </Button>
      {message && <p role="status">{message}</p>}
    </section>
  );
}

// Where the add-in talks to: the sandbox (either profile), production or custom endpoints. Saved
// per user (their own storage), never in the workbook. The sandbox presets are fixed: their
// fields are shown read-only so it is clear what they are and that choosing another edits them.
import { useState } from "react";
import { Button, Field, Input, Radio, RadioGroup, makeStyles, tokens } from "@fluentui/react-components";
import { productionAddresses, type EnvironmentSettings } from "../../core/settings/environment.js";
import { DEPLOYED_PRODUCTION_ENVIRONMENT, DEPLOYED_SANDBOX_ENVIRONMENT, DEPLOYED_SANDBOX_PRODUCTION_ENVIRONMENT } from "../deployment.js";
import { errorText } from "../errorText.js";
import { useServices } from "../services.js";

const useStyles = makeStyles({
  section: { display: "flex", flexDirection: "column", gap: tokens.spacingVerticalS, minWidth: 0 },
  heading: { fontSize: tokens.fontSizeBase400, fontWeight: tokens.fontWeightSemibold, margin: `${tokens.spacingVerticalM} 0 0` },
  wrap: { overflowWrap: "anywhere", margin: 0 },
  input: { width: "100%", minWidth: 0 },
});

const PRESETS: Record<string, EnvironmentSettings> = {
  // What `npm start` serves (its sandbox and broker ports).
  sandbox: DEPLOYED_SANDBOX_ENVIRONMENT,
  sandboxProduction: DEPLOYED_SANDBOX_PRODUCTION_ENVIRONMENT,
  // The build's deployment addresses (placeholders where it was given none).
  production: DEPLOYED_PRODUCTION_ENVIRONMENT,
};

type SignIn = EnvironmentSettings["signIn"];

export function SettingsTab() {
  const styles = useStyles();
  const services = useServices();
  const [env, setEnv] = useState<EnvironmentSettings>(services.runtime.environment);
  const [problems, setProblems] = useState<string[]>([]);
  const [message, setMessage] = useState<string | undefined>();
  const fixed = env.kind === "sandbox" || env.kind === "sandboxProduction";

  const choose = (kind: string) => {
    const preset = PRESETS[kind];
    if (preset) setEnv(preset);
    else setEnv({ ...DEPLOYED_SANDBOX_ENVIRONMENT, ...(env.kind === "custom" ? env : {}), kind: "custom", label: "Custom" });
  };
  const edit = (change: Partial<EnvironmentSettings>, signIn?: Partial<SignIn>) => setEnv((e) => ({ ...e, ...change, signIn: { ...e.signIn, ...signIn } }));
  /** Sets or removes an optional member. */
  const optional = <T extends object, K extends keyof T>(value: T, key: K, text: string): T => {
    const { [key]: _old, ...rest } = value;
    return (text ? { ...rest, [key]: text } : rest) as T;
  };

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

  const field = (label: string, value: string, onChange: (text: string) => void, hint?: string) => (
    <Field label={label} {...(hint ? { hint } : {})}>
      <Input className={styles.input} value={value} readOnly={fixed} onChange={(_, d) => onChange(d.value)} />
    </Field>
  );

  return (
    <section aria-labelledby="settings-heading" className={styles.section}>
      <h2 id="settings-heading" className={styles.heading}>
        Connection settings
      </h2>
      {services.environmentOverridden && (
        <p className={styles.wrap}>The page address sets the data API for this session ({services.runtime.environment.apiBaseUrl}).</p>
      )}
      <RadioGroup value={env.kind} onChange={(_, d) => choose(d.value)} aria-label="Environment">
        <Radio value="sandbox" label="Sandbox (local, no account needed)" />
        <Radio value="sandboxProduction" label="Sandbox (production profile, with the local token broker)" />
        <Radio value="production" label="Production service" />
        <Radio value="custom" label="Custom endpoints" />
      </RadioGroup>
      {fixed && (
        <p className={styles.wrap} id="settings-fixed">
          These addresses are fixed for the sandbox. Choose Production service or Custom endpoints to change them.
        </p>
      )}
      {env.profile === "production" ? (
        <>
          {field("Service address", env.apiBaseUrl, (text) => {
            const at = productionAddresses(text);
            edit({ apiBaseUrl: text, audiencesBaseUrl: at.audiencesBaseUrl }, { authority: at.authority, authorizeUrl: at.authorizeUrl });
          })}
          {field("Sign-in (authorize) address", env.signIn.authorizeUrl ?? "", (text) => edit({}, { authorizeUrl: text }))}
          {field("Client id", env.signIn.clientId, (text) => edit({}, { clientId: text }), "From your organization's app registration")}
          {field(
            "Token broker address",
            env.signIn.tokenEndpoint ?? "",
            (text) => edit({}, { tokenEndpoint: text }),
            "Your organization's broker, ending in /token",
          )}
          {field(
            "API relay (optional)",
            env.relayUrl ?? "",
            (text) => setEnv((e) => optional(e, "relayUrl", text)),
            "Only when the service does not answer browsers",
          )}
        </>
      ) : (
        <>
          {field("Data API address", env.apiBaseUrl, (text) => edit({ apiBaseUrl: text }))}
          {field("Audience API address", env.audiencesBaseUrl, (text) => edit({ audiencesBaseUrl: text }))}
          {field("Sign-in authority", env.signIn.authority, (text) => edit({}, { authority: text }))}
          {field("Client id", env.signIn.clientId, (text) => edit({}, { clientId: text }))}
          {field(
            "Token endpoint (optional)",
            env.signIn.tokenEndpoint ?? "",
            (text) => setEnv((e) => ({ ...e, signIn: optional(e.signIn, "tokenEndpoint", text) })),
            "Your organization's token broker, when it has one",
          )}
        </>
      )}
      {problems.length > 0 && (
        <ul role="alert" className={styles.wrap}>
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
      <div>
        <Button appearance="primary" onClick={() => void save()}>
          Save settings
        </Button>
      </div>
      {message && (
        <p role="status" className={styles.wrap}>
          {message}
        </p>
      )}
    </section>
  );
}

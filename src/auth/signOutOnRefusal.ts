// A request hook: a refusal of the sign-in that the client's own forced token refresh did not
// fix signs the user out with reason "expired", so the task pane returns to the sign-in screen
// saying why. The one place this happens; components only show the error.
import { isServiceError } from "../core/api/errors.js";
import type { RequestHooks } from "../core/api/hooks.js";
import type { TokenSource } from "./types.js";

export function signOutOnRefusedSignIn(hooks: RequestHooks, tokens: TokenSource, log: (message: string) => void = console.error): () => void {
  return hooks.wrap(async (send, spec) => {
    // Who was signed in when the request started: a later sign-in as someone else is kept.
    const signedInAs = tokens.account()?.username;
    try {
      return await send(spec);
    } catch (error) {
      const now = tokens.account();
      // Signed out already (no token to begin with, or the token source gave up itself): nothing to do.
      if (isServiceError(error) && error.kind === "unauthorized" && now !== null && (signedInAs === undefined || signedInAs === now.username)) {
        tokens.signOut({ reason: "expired" }).catch((signOutError: unknown) =>
          // The request's own error still reaches the caller; this only records why the screen did not change.
          log(`Signing out after a refused sign-in failed: ${signOutError instanceof Error ? signOutError.message : String(signOutError)}`),
        );
      }
      throw error;
    }
  });
}

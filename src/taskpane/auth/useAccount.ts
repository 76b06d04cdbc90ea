// The signed-in account of a token source, as React state that follows sign-in and sign-out.
import { useEffect, useState } from "react";
import type { AccountChangeReason, AccountInfo, TokenSource } from "../../auth/index.js";

export interface AccountState {
  account: AccountInfo | null;
  /** Why the account last changed (e.g. "expired": the sign-in could not be renewed). */
  reason: AccountChangeReason | undefined;
}

export function useAccount(tokenSource: Pick<TokenSource, "account" | "onChange">): AccountState {
  const [state, setState] = useState<AccountState>(() => ({ account: tokenSource.account(), reason: undefined }));
  useEffect(() => {
    setState({ account: tokenSource.account(), reason: undefined });
    return tokenSource.onChange((account, reason) => setState({ account, reason }));
  }, [tokenSource]);
  return state;
}

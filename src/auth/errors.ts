// Sign-in failures as the client's ServiceError values (kind + a message for the user).
import { serviceError, type ServiceError } from "../core/api/errors.js";

export function signInRequired(userMessage = "You are not signed in. Sign in to continue."): ServiceError {
  return serviceError("unauthorized", { userMessage, message: "No access token: the user is not signed in" });
}

export function signInExpired(): ServiceError {
  return serviceError("unauthorized", {
    userMessage: "Your sign-in has expired. Sign in again.",
    message: "The access token could not be renewed",
  });
}

export function signInCancelled(userMessage: string): ServiceError {
  return serviceError("cancelled", { userMessage, message: "Sign-in did not finish" });
}

export function signInDenied(userMessage: string): ServiceError {
  return serviceError("unauthorized", { userMessage, message: "Access was not granted" });
}

export function signInFailed(userMessage: string, technical: string): ServiceError {
  return serviceError("network", { userMessage, message: technical });
}

/** The sign-in server answered 404: Settings point at another environment's address. */
export function signInNotHere(host: string): ServiceError {
  return serviceError("network", {
    userMessage: `This environment's sign-in is not here: the server at ${host} answered "not found". Under Connection settings (below), choose the environment your service runs (for example Sandbox, or Sandbox (production profile)).`,
    message: "Sign-in server answered 404",
  });
}

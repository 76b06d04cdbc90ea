// A stand-in for Excel's CustomFunctions runtime global, so the functions module runs in Node.
export class FakeCustomFunctionsError extends Error {
  constructor(
    readonly code: string,
    message?: string,
  ) {
    super(message ?? "");
  }
}

export function installFakeCustomFunctions(): void {
  (globalThis as any).CustomFunctions = {
    Error: FakeCustomFunctionsError,
    ErrorCode: {
      invalidValue: "#VALUE!",
      notAvailable: "#N/A",
      divisionByZero: "#DIV/0!",
      invalidNumber: "#NUM!",
      nullReference: "#NULL!",
      invalidName: "#NAME?",
      invalidReference: "#REF!",
    },
    associate: () => undefined,
  };
}

/** An invocation as Excel passes it. */
export function invocation(preview = false): CustomFunctions.Invocation {
  return { isInValuePreview: preview } as unknown as CustomFunctions.Invocation;
}

/** What a cell shows: the value, or the error code and message. */
export async function cellOutcome(promise: Promise<unknown>): Promise<{ value?: unknown; error?: string; message?: string }> {
  try {
    return { value: await promise };
  } catch (error) {
    if (error instanceof FakeCustomFunctionsError) return { error: error.code, message: error.message };
    throw error;
  }
}

let instances = 0;

/**
 * The functions module as one test file's own instance (a module URL of its own), with the fake
 * CustomFunctions installed: what one file configures (the engine, the job status, the startup
 * clock) cannot reach another file run in the same process. Test files load the functions this
 * way (test/functions/instances.test.ts checks it); only the runtime's wiring test uses the
 * module the runtime imports.
 */
export async function loadFunctions(): Promise<typeof import("../../src/functions/functions.js")> {
  installFakeCustomFunctions();
  instances += 1;
  return (await import(`../../src/functions/functions.js?instance=${instances}`)) as typeof import("../../src/functions/functions.js");
}

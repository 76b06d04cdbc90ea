// The stored shape of a tracked job, as a TypeBox schema: the job list kept in the user's
// storage is checked with the contract's validator when it is read back (storage.ts).
import { Type } from "@sinclair/typebox";

export const TrackedJobSchema = Type.Object({
  audienceId: Type.String(),
  jobId: Type.String(),
  audienceName: Type.String(),
  /** When the user started it (epoch ms). */
  startedAt: Type.Number(),
  /** The service's state: SCHEDULED, RUNNING, SUCCEEDED, PARTIALLY_SUCCEEDED, FAILED, CANCELLED. */
  status: Type.String(),
  percentProgress: Type.Optional(Type.Number()),
  terminal: Type.Boolean(),
  /** When the panel first saw the job end (epoch ms). */
  finishedAt: Type.Optional(Type.Number()),
  /** The scope it was started with; ROW jobs keep their row ids to count failures among them. */
  scope: Type.Optional(Type.Union([Type.Literal("AUDIENCE"), Type.Literal("ROW")])),
  rowIds: Type.Optional(Type.Array(Type.String())),
  /** Rows that ended in ERROR or NO_RESULT, read from the audience's rows after the end. */
  failedRows: Type.Optional(Type.Number()),
  /** The last polling problem, in words for the user (cleared by the next good status). */
  problem: Type.Optional(Type.String()),
});

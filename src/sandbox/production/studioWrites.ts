// Production's audience writes under /gtm/studio/v1 (docs/audiences.md), as its published
// description has them: create an audience (201), add, rename and delete columns, match criteria
// (the body is optional), upsert rows (50) and bulk upsert (500), bulk delete rows (202 with a
// job), patch and delete an audience, folders (paged; made, read, changed, deleted). Each calls the
// specification's operation directly (the one engine, its checks and access rules) and answers in
// production's document shapes.
import type { FastifyInstance, FastifyRequest } from "fastify";
import { emptyBodyIsNone } from "../audiences/emptyBody.js";
import { ERROR_CODES } from "../../core/contract/index.js";
import { ApiError } from "../errors.js";
import { gatewayHandler, relayAnswer } from "./gateway.js";
import type { CalledAnswer, OperationCaller } from "../routes/operations.js";
import { ROWS_BODY_LIMIT } from "../audiences/writeRoutes.js";
import { studioAudience, studioColumn, studioRow, type CoreAudience, type CoreColumn, type CoreRow } from "./studioDocuments.js";

const STUDIO = "/gtm/studio/v1";
const FOLDER_PAGE = { size: 25, max: 100 };

type Params = { audienceId: string; folderId: string };
const ok = (answer: CalledAnswer) => answer.status >= 200 && answer.status < 300;

function folderPage(query: Record<string, string | undefined>): { number: number; size: number } {
  const number = Number(query["page[number]"] ?? 1);
  const size = Number(query["page[size]"] ?? FOLDER_PAGE.size);
  if (!Number.isInteger(number) || number < 1)
    throw new ApiError(400, ERROR_CODES.validation, "page[number] must be a whole number of at least 1.", { parameter: "page[number]" });
  if (!Number.isInteger(size) || size < 1 || size > FOLDER_PAGE.max)
    throw new ApiError(400, ERROR_CODES.validation, `page[size] must be a whole number from 1 to ${FOLDER_PAGE.max}.`, { parameter: "page[size]" });
  return { number, size };
}

/** The route's operation and the resource a refusal names. */
const serves = (operation: string, resource: string) => ({ config: { operation, resource: `${STUDIO}/${resource}` } });
const audienceParams = (request: FastifyRequest) => ({ audienceId: (request.params as Params).audienceId });
/** The audience's record type, for its columns' data types (the match column's id type). */
const audienceTypeOf = (operations: OperationCaller) => async (request: FastifyRequest) => {
  const answer = await operations.call("getAudience", request, { params: audienceParams(request) });
  return ok(answer) ? (answer.body as { data: CoreAudience }).data.attributes.type : "COMPANY";
};
const audienceAnswer = (answer: CalledAnswer) => ({ data: studioAudience((answer.body as { data: CoreAudience }).data) });

function studioAudienceWriteRoutes(app: FastifyInstance, operations: OperationCaller): void {
  app.post(
    `${STUDIO}/audiences`,
    serves("createAudience", "audiences"),
    gatewayHandler(async (request, reply) => {
      const auto = (request.query as Record<string, string | undefined>).autoMatchCriteria;
      const answer = await operations.call("createAudience", request, { query: auto === "true" ? { autoMatchCriteria: "true" } : {}, body: request.body });
      return relayAnswer(reply, answer, ok(answer) ? audienceAnswer(answer) : answer.body);
    }),
  );

  app.patch(
    `${STUDIO}/audiences/:audienceId`,
    serves("patchAudience", "audiences"),
    gatewayHandler(async (request, reply) => {
      const answer = await operations.call("patchAudience", request, { params: audienceParams(request), body: request.body });
      return relayAnswer(reply, answer, ok(answer) ? audienceAnswer(answer) : answer.body);
    }),
  );

  app.delete(
    `${STUDIO}/audiences/:audienceId`,
    serves("deleteAudience", "audiences"),
    gatewayHandler(async (request, reply) => {
      return relayAnswer(reply, await operations.call("deleteAudience", request, { params: audienceParams(request) }));
    }),
  );
}

function studioColumnRoutes(app: FastifyInstance, operations: OperationCaller): void {
  const audienceType = audienceTypeOf(operations);

  app.post(
    `${STUDIO}/audiences/:audienceId/columns/actions/bulk/create`,
    serves("addColumns", "audiences/columns"),
    gatewayHandler(async (request, reply) => {
      const answer = await operations.call("addColumns", request, { params: audienceParams(request), body: request.body });
      if (!ok(answer)) return relayAnswer(reply, answer);
      const type = await audienceType(request);
      return relayAnswer(reply, answer, { data: (answer.body as { data: CoreColumn[] }).data.map((c) => studioColumn(c, type)) });
    }),
  );

  const columnParams = (request: FastifyRequest) => ({ ...audienceParams(request), columnId: (request.params as { columnId: string }).columnId });

  app.patch(
    `${STUDIO}/audiences/:audienceId/columns/:columnId`,
    serves("patchColumn", "audiences/columns"),
    gatewayHandler(async (request, reply) => {
      const answer = await operations.call("patchColumn", request, { params: columnParams(request), body: request.body });
      if (!ok(answer)) return relayAnswer(reply, answer);
      return relayAnswer(reply, answer, { data: studioColumn((answer.body as { data: CoreColumn }).data, await audienceType(request)) });
    }),
  );

  app.delete(
    `${STUDIO}/audiences/:audienceId/columns/:columnId`,
    serves("deleteColumn", "audiences/columns"),
    gatewayHandler(async (request, reply) => {
      return relayAnswer(reply, await operations.call("deleteColumn", request, { params: columnParams(request) }));
    }),
  );

  app.post(
    `${STUDIO}/audiences/:audienceId/actions/match-criteria`,
    { onRequest: emptyBodyIsNone, ...serves("setMatchCriteria", "audiences/match-criteria") },
    gatewayHandler(async (request, reply) => {
      const answer = await operations.call("setMatchCriteria", request, { params: audienceParams(request), body: request.body ?? undefined });
      if (!ok(answer)) return relayAnswer(reply, answer);
      return relayAnswer(reply, answer, { data: studioColumn((answer.body as { data: CoreColumn }).data, await audienceType(request)) });
    }),
  );
}

function studioRowWriteRoutes(app: FastifyInstance, operations: OperationCaller): void {
  for (const [path, operation] of [
    ["rows/actions/upsert", "upsertRows"],
    ["rows/actions/bulk/upsert", "bulkUpsertRows"],
  ] as const) {
    app.post(
      `${STUDIO}/audiences/:audienceId/${path}`,
      { bodyLimit: ROWS_BODY_LIMIT, ...serves(operation, "audiences/rows") },
      gatewayHandler(async (request, reply) => {
        const answer = await operations.call(operation, request, { params: audienceParams(request), body: request.body });
        if (!ok(answer)) return relayAnswer(reply, answer);
        return relayAnswer(reply, answer, { data: (answer.body as { data: CoreRow[] }).data.map((row) => studioRow(row, undefined)) });
      }),
    );
  }

  app.delete(
    `${STUDIO}/audiences/:audienceId/rows/actions/bulk/delete`,
    serves("deleteRows", "audiences/rows"),
    gatewayHandler(async (request, reply) => {
      return relayAnswer(reply, await operations.call("deleteRows", request, { params: audienceParams(request), body: request.body }));
    }),
  );
}

function studioFolderRoutes(app: FastifyInstance, operations: OperationCaller): void {
  app.get(
    `${STUDIO}/folders`,
    serves("listFolders", "folders"),
    gatewayHandler(async (request, reply) => {
      const { number, size } = folderPage(request.query as Record<string, string | undefined>);
      const answer = await operations.call("listFolders", request);
      if (!ok(answer)) return relayAnswer(reply, answer);
      const all = (answer.body as { data: unknown[] }).data;
      return relayAnswer(reply, answer, { data: all.slice((number - 1) * size, number * size), meta: { page: { size, number }, total: all.length } });
    }),
  );

  app.post(
    `${STUDIO}/folders`,
    serves("createFolder", "folders"),
    gatewayHandler(async (request, reply) => {
      return relayAnswer(reply, await operations.call("createFolder", request, { body: request.body }));
    }),
  );

  const folderParams = (request: FastifyRequest) => ({ folderId: (request.params as Params).folderId });

  app.patch(
    `${STUDIO}/folders/:folderId`,
    serves("patchFolder", "folders"),
    gatewayHandler(async (request, reply) => {
      return relayAnswer(reply, await operations.call("patchFolder", request, { params: folderParams(request), body: request.body }));
    }),
  );

  app.delete(
    `${STUDIO}/folders/:folderId`,
    serves("deleteFolder", "folders"),
    gatewayHandler(async (request, reply) => {
      return relayAnswer(reply, await operations.call("deleteFolder", request, { params: folderParams(request) }));
    }),
  );

  app.get(
    `${STUDIO}/folders/:folderId`,
    serves("getFolder", "folders"),
    gatewayHandler(async (request, reply) => {
      return relayAnswer(reply, await operations.call("getFolder", request, { params: folderParams(request) }));
    }),
  );
}

export async function productionStudioWriteRoutes(app: FastifyInstance, operations: OperationCaller): Promise<void> {
  studioAudienceWriteRoutes(app, operations);
  studioColumnRoutes(app, operations);
  studioRowWriteRoutes(app, operations);
  studioFolderRoutes(app, operations);
}

import {
  ApiErrorSchema,
  CreateSessionBodySchema,
  InviteBodySchema,
  InviteSchema,
  JoinByCodeBodySchema,
  JoinDecisionBodySchema,
  JoinRequestSchema,
  MessageResponseSchema,
  SessionCodeBodySchema,
  SessionCodeSchema,
  SessionSchema,
  UpdateSessionBodySchema,
} from "@cartner/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { ReadCache } from "../../lib/read-cache.ts";
import type { SessionService } from "./service.ts";

const IdParams = z.strictObject({ id: z.uuid("Session not found") });
const CodeParams = z.strictObject({ code: SessionCodeSchema });
const errors = {
  400: ApiErrorSchema,
  401: ApiErrorSchema,
  403: ApiErrorSchema,
  404: ApiErrorSchema,
  409: ApiErrorSchema,
};
const SessionsResponse = z.object({ sessions: z.array(SessionSchema) });
const SessionResponse = z.object({ session: SessionSchema });
const MessageWithSession = z.object({ message: z.string(), sessionId: z.string() });

export const sessionRoutes =
  (service: SessionService, joinRateLimit: number, cache: ReadCache): FastifyPluginAsyncZod =>
  async (app) => {
    app.addHook("onRequest", app.authenticate);
    const tags = ["sessions"];
    const security = [{ bearer: [] }];

    app.post(
      "/",
      {
        schema: {
          tags,
          security,
          summary: "Create a session (the caller is its creator); its cart is created with it",
          body: CreateSessionBodySchema,
          response: { 201: z.object({ message: z.string(), session: SessionSchema }), ...errors },
        },
      },
      async (request, reply) => {
        const session = await service.create(request.auth.user, request.body);
        return reply.code(201).send({ message: "Session created", session });
      },
    );

    app.get(
      "/my",
      {
        schema: {
          tags,
          security,
          summary: "My sessions, active and ended, newest first",
          response: { 200: SessionsResponse, 401: ApiErrorSchema },
        },
      },
      async (request) =>
        cache.read(request, async () => ({
          sessions: await service.list(request.auth.user._id),
        })),
    );

    app.get(
      "/mysessions/actives",
      {
        schema: {
          tags,
          security,
          summary: "My active sessions, newest first",
          response: { 200: SessionsResponse, 401: ApiErrorSchema },
        },
      },
      async (request) =>
        cache.read(request, async () => ({
          sessions: await service.list(request.auth.user._id, "active"),
        })),
    );

    app.get(
      "/sync",
      {
        schema: {
          tags,
          security,
          summary: "My active sessions and a version that changes whenever any of them does",
          response: {
            200: z.object({ sessions: z.array(SessionSchema), version: z.number().int() }),
            401: ApiErrorSchema,
          },
        },
      },
      async (request) =>
        cache.read(request, async () => {
          const sessions = await service.list(request.auth.user._id, "active");
          return { sessions, version: sessions.reduce((sum, s) => sum + s.version, 0) };
        }),
    );

    app.get(
      "/myinvites",
      {
        schema: {
          tags,
          security,
          summary: "Invites waiting for me",
          response: { 200: z.object({ invites: z.array(InviteSchema) }), 401: ApiErrorSchema },
        },
      },
      async (request) =>
        cache.read(request, async () => ({
          invites: await service.myInvites(request.auth.user),
        })),
    );

    app.get(
      "/:id",
      {
        schema: {
          tags,
          security,
          summary: "One session (members only)",
          params: IdParams,
          response: { 200: SessionResponse, ...errors },
        },
      },
      async (request) =>
        cache.read(request, async () => ({
          session: await service.get(request.params.id, request.auth.user._id),
        })),
    );

    app.patch(
      "/:id",
      {
        schema: {
          tags,
          security,
          summary: "Edit a session (creator)",
          params: IdParams,
          body: UpdateSessionBodySchema,
          response: { 200: SessionResponse, ...errors },
        },
      },
      async (request) => ({
        session: await service.update(request.params.id, request.auth.user._id, request.body),
      }),
    );

    app.delete(
      "/:id/leave",
      {
        schema: {
          tags,
          security,
          summary: "Leave a session (participant, viewer); a pending requester withdraws",
          params: IdParams,
          response: { 200: MessageResponseSchema, ...errors },
        },
      },
      async (request) => service.leave(request.params.id, request.auth.user._id),
    );

    app.put(
      "/:id/end",
      {
        schema: {
          tags,
          security,
          summary: "End a session (creator); its cart becomes history",
          params: IdParams,
          response: { 200: MessageWithSession, ...errors },
        },
      },
      async (request) => service.end(request.params.id, request.auth.user._id),
    );

    app.post(
      "/join/code",
      {
        // Per IP, like sign-in; guessing is also limited per user and per session in the service.
        config: { rateLimit: { max: joinRateLimit, timeWindow: "1 minute" } },
        schema: {
          tags,
          security,
          summary: "Ask to join with code and passcode (creates a pending request)",
          body: JoinByCodeBodySchema,
          response: { 202: MessageWithSession, 429: ApiErrorSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply
          .code(202)
          .send(
            await service.joinByCode(
              request.auth.user._id,
              request.body.sessionCode,
              request.body.passcode,
            ),
          ),
    );

    app.post(
      "/joinrequests",
      {
        schema: {
          tags,
          security,
          summary: "Pending join requests of a session (creator)",
          body: SessionCodeBodySchema,
          response: { 200: z.object({ requests: z.array(JoinRequestSchema) }), ...errors },
        },
      },
      async (request) => ({
        requests: await service.joinRequests(request.auth.user._id, request.body.sessionCode),
      }),
    );

    for (const [path, approve] of [
      ["/approve/:code", true],
      ["/reject/:code", false],
    ] as const) {
      app.post(
        path,
        {
          schema: {
            tags,
            security,
            summary: `${approve ? "Approve" : "Reject"} a join request (creator), by userId or email`,
            params: CodeParams,
            body: JoinDecisionBodySchema,
            response: { 200: MessageResponseSchema, ...errors },
          },
        },
        async (request) => {
          const body = request.body;
          const target =
            "email" in body
              ? { email: body.email }
              : typeof body.userId === "string"
                ? { userId: body.userId }
                : { email: body.userId.email };
          return service.decide(request.auth.user._id, request.params.code, target, approve);
        },
      );
    }

    app.post(
      "/invite",
      {
        schema: {
          tags,
          security,
          summary: "Invite someone by email or name as participant or viewer (creator)",
          body: InviteBodySchema,
          response: { 201: MessageResponseSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply
          .code(201)
          .send(
            await service.invite(
              request.auth.user,
              request.body.sessionCode,
              request.body.emailOrUsername,
              request.body.role,
            ),
          ),
    );

    app.post(
      "/accinvite",
      {
        schema: {
          tags,
          security,
          summary: "Accept an invite",
          body: SessionCodeBodySchema,
          response: { 200: MessageWithSession, ...errors },
        },
      },
      async (request) => {
        const result = await service.respond(request.auth.user, request.body.sessionCode, true);
        return result as { message: string; sessionId: string };
      },
    );

    app.post(
      "/rejinvite",
      {
        schema: {
          tags,
          security,
          summary: "Reject an invite",
          body: SessionCodeBodySchema,
          response: { 200: MessageResponseSchema, ...errors },
        },
      },
      async (request) => {
        const { message } = await service.respond(
          request.auth.user,
          request.body.sessionCode,
          false,
        );
        return { message };
      },
    );
  };

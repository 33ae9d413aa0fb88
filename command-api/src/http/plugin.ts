import swagger, { type StaticDocumentSpec } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  checkRequestHeaders,
  mapDomainError,
  registerErrorHandler,
  security,
  sessions,
} from '@shiftcover/platform';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { authRoutes } from './auth-routes';
import { calendarRoutes } from './calendar-routes';
import type { CommandApiDeps } from './context';
import { escalationRoutes } from './escalation-routes';
import { peopleRoutes } from './people-routes';
import { safetyRoutes } from './safety-routes';
import { shiftRoutes } from './shift-routes';

/** An OpenAPI document, as `@fastify/swagger` generates it (version 3) and serves it. */
export type ApiDocument = StaticDocumentSpec['document'];

export interface HttpFoundationOptions {
  trustedOrigins?: string[];
  /**
   * The OpenAPI document to serve as it is, for a service that serves only some of the routes but
   * documents them all; generated from the registered routes when absent.
   */
  document?: ApiDocument;
}

/** The groups the routes are tagged with in the OpenAPI document. */
const API_TAGS = [
  'auth',
  'shifts',
  'drop requests',
  'transfers',
  'users',
  'credentials',
  'time off',
  'working-time rules',
  'escalation policy',
  'residences',
  'notifications',
  'calendar',
  'completed shifts',
  'audit log',
  'analytics',
  'reports',
  'system configuration',
  'developer tools',
  'live updates',
];

/** An operation's id from its method and path: `GET /api/shifts/:id/history` is `getShiftsIdHistory`. */
export function operationIdOf(method: string | string[], url: string): string {
  const verb = (Array.isArray(method) ? method[0]! : method).toLowerCase();
  const words = url
    .replace(/^\/api\//, '')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return verb + words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
}

/**
 * What every HTTP route of the product stands on: zod validation, the error answers, security
 * headers and origin checks, sessions, and the OpenAPI document at /api/docs.
 */
export async function registerHttpFoundation(
  app: FastifyInstance,
  deps: Pick<CommandApiDeps, 'sessions'>,
  options: HttpFoundationOptions = {},
): Promise<void> {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app, mapDomainError);
  app.addHook('onRequest', async (request) => checkRequestHeaders(request));
  await app.register(security, { trustedOrigins: options.trustedOrigins ?? [] });
  await app.register(sessions, { store: deps.sessions });
  await app.register(
    swagger,
    options.document
      ? { mode: 'static', specification: { document: options.document } }
      : {
          openapi: {
            info: {
              title: 'Shift Coverage API',
              version: '1.0.0',
              description:
                'Open shifts at residences, claimed, dropped and handed over by support staff and approved by admins.',
              contact: { name: 'Shift Coverage' },
            },
            // The API is served by the same origin as the screens.
            servers: [{ url: '/' }],
            tags: API_TAGS.map((name) => ({ name })),
          },
          transform: (route) => {
            const transformed = jsonSchemaTransform(route);
            return {
              ...transformed,
              schema: { ...transformed.schema, operationId: operationIdOf(route.route.method, route.url) },
            };
          },
        },
  );
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
}

/** Every write route of docs/product.md §7 and §10, and the sign-in routes. */
export async function commandApi(app: FastifyInstance, deps: CommandApiDeps): Promise<void> {
  await app.register(authRoutes, deps);
  await app.register(shiftRoutes, deps);
  await app.register(peopleRoutes, deps);
  await app.register(safetyRoutes, deps);
  await app.register(calendarRoutes, deps);
  await app.register(escalationRoutes, deps);
}

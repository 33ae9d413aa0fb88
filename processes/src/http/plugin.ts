import type { FastifyInstance } from 'fastify';
import type { ProcessRoutesDeps } from './context';
import { emailToolRoutes } from './email-tools';
import { parkedEventRoutes } from './parked-routes';
import { reportRoutes } from './report-routes';

/** The developer and admin calls of docs/product.md §7 that the processes answer. */
export async function processRoutes(app: FastifyInstance, deps: ProcessRoutesDeps): Promise<void> {
  await app.register(emailToolRoutes, deps);
  await app.register(reportRoutes, deps);
  await app.register(parkedEventRoutes, deps);
}

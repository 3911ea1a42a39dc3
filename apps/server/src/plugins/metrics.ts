import type { FastifyInstance } from 'fastify';

/** Prometheus metrics at /api/metrics (issue 13): filled in by the cluster and metrics work. */
export function registerMetrics(app: FastifyInstance): void {
  void app;
}

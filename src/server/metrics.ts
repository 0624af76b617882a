import type { RequestHandler } from 'express';
import client from 'prom-client';
import type { EventObserver } from './realtime/caller';

/** Prometheus metrics of one server instance (its own registry, so tests can run several). */
export function createMetrics(knownProcedures: ReadonlySet<string>) {
  const registry = new client.Registry();
  // Default metrics include nodejs_eventloop_lag_seconds and the event-loop lag percentiles.
  client.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
  const httpDuration = new client.Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method, route group and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  // The sends and takes over the open socket skip HTTP: their own latency, by event and outcome.
  const eventDuration = new client.Histogram({
    name: 'socketio_event_duration_seconds',
    help: 'Acknowledged Socket.IO event latency by event and outcome (ok, refused, error)',
    labelNames: ['event', 'outcome'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const openSockets = new client.Gauge({
    name: 'socketio_open_sockets',
    help: 'Socket.IO connections open on this instance',
    registers: [registry],
  });

  const httpMiddleware: RequestHandler = (req, res, next) => {
    const stop = httpDuration.startTimer();
    res.on('finish', () => stop({ method: req.method, route: routeGroup(req.originalUrl.split('?')[0]!, knownProcedures), status: String(res.statusCode) }));
    next();
  };

  const observeEvent: EventObserver = (event, outcome, seconds) => eventDuration.observe({ event, outcome }, seconds);

  return { registry, openSockets, httpMiddleware, observeEvent, stop: () => registry.clear() };
}

/** Keeps label cardinality bounded: a known procedure's name for tRPC, the first segment otherwise. */
function routeGroup(p: string, knownProcedures: ReadonlySet<string>): string {
  const [, first = '', second = ''] = p.split('/');
  if (first === 'trpc') {
    if (second.includes(',')) return '/trpc/(batch)';
    return knownProcedures.has(second) ? `/trpc/${second}` : '/trpc/(unknown)';
  }
  return ['healthz', 'metrics', 'files', 'socket.io'].includes(first) ? `/${first}` : '/app';
}

import { randomUUID } from 'node:crypto';
import { type RequestHandler, Router } from 'express';
import { invalidRequest } from './errors.js';

export const SUBSCRIPTIONS_PATH = '/notification/v1/connect/webhook/subscriptions';

/** Spec 2.6, as stored. */
export interface Subscription {
  id: string;
  eventNames: string[];
  endpoint: string;
  signingKey: string | undefined;
  protocol: 'https' | 'http';
}

export class SubscriptionStore {
  readonly #items = new Map<string, Subscription>();

  add(subscription: Omit<Subscription, 'id'>): Subscription {
    const stored = { ...subscription, id: randomUUID() };
    this.#items.set(stored.id, stored);
    return stored;
  }

  /** Subscriptions that listen to `event`. */
  for(event: string): Subscription[] {
    return [...this.#items.values()].filter((item) => item.eventNames.includes(event));
  }

  get size(): number {
    return this.#items.size;
  }
}

const invalid = (message: string) => invalidRequest('subscription.invalid', message);

/** Checks a spec 2.6 body; the reference service also allows `http` so that local receivers work. */
export function parseSubscription(body: unknown): Omit<Subscription, 'id'> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw invalid('Send a JSON object with event_names, endpoint, signing_key and protocol.');
  }
  const value = body as Record<string, unknown>;
  const names = value.event_names;
  if (
    !Array.isArray(names) ||
    names.length === 0 ||
    names.some((name) => typeof name !== 'string' || name === '')
  ) {
    throw invalid('event_names must be a non-empty array of event names, e.g. ["v2rx.completed"].');
  }
  let endpoint: URL;
  try {
    endpoint = new URL(String(value.endpoint));
  } catch {
    throw invalid('endpoint must be the absolute URL of a publicly reachable receiver.');
  }
  const protocol = value.protocol ?? endpoint.protocol.replace(/:$/, '');
  if (protocol !== 'https' && protocol !== 'http')
    throw invalid('protocol must be "https" (or "http" for local tests).');
  if (endpoint.protocol !== `${protocol}:`) {
    throw invalid(
      `protocol is "${protocol}" but the endpoint URL uses ${endpoint.protocol.replace(/:$/, '')}.`,
    );
  }
  const signingKey = value.signing_key;
  if (signingKey !== undefined && (typeof signingKey !== 'string' || signingKey.length < 8)) {
    throw invalid(
      'signing_key must be a string of at least 8 characters, or left out for unsigned deliveries.',
    );
  }
  return { eventNames: names as string[], endpoint: endpoint.href, signingKey, protocol };
}

/** Spec 4.4; field notes: 201 `{id, status: "success"}`. */
export function subscriptionRoutes(
  store: SubscriptionStore,
  auth: RequestHandler,
  json: RequestHandler,
): Router {
  const router = Router();
  router.post(SUBSCRIPTIONS_PATH, auth, json, (req, res) => {
    const subscription = store.add(parseSubscription(req.body));
    res.status(201).json({ id: subscription.id, status: 'success' });
  });
  return router;
}

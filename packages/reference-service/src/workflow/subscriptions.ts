import { randomUUID } from 'node:crypto';
import { type RequestHandler, type Response, Router } from 'express';
import type { EndpointPolicy } from './endpoint-policy.js';
import { invalidRequest, WorkflowHttpError } from './errors.js';
import { COMPLETED_EVENT } from './vocabulary.js';

export const SUBSCRIPTIONS_PATH = '/notification/v1/connect/webhook/subscriptions';

/** Spec 2.6, as stored. */
export interface Subscription {
  id: string;
  owner: string;
  eventNames: string[];
  endpoint: string;
  signingKey: string | undefined;
  protocol: 'https' | 'http';
  createdAt: string;
}

export class SubscriptionStore {
  readonly #items = new Map<string, Subscription>();

  add(subscription: Omit<Subscription, 'id' | 'createdAt'>): Subscription {
    const stored = { ...subscription, id: randomUUID(), createdAt: new Date().toISOString() };
    this.#items.set(stored.id, stored);
    return stored;
  }

  /** `owner`'s subscription with this id; another client's is as absent as an unknown one. */
  get(id: string, owner: string): Subscription | undefined {
    const subscription = this.#items.get(id);
    return subscription?.owner === owner ? subscription : undefined;
  }

  delete(id: string, owner: string): boolean {
    return this.get(id, owner) !== undefined && this.#items.delete(id);
  }

  /** `owner`'s subscriptions, or those of them that listen to `event`. */
  of(owner: string, event?: string): Subscription[] {
    return [...this.#items.values()].filter(
      (item) => item.owner === owner && (event === undefined || item.eventNames.includes(event)),
    );
  }
}

const invalid = (message: string) => invalidRequest('subscription.invalid', message);

/** Checks a spec 2.6 body against the operator's endpoint policy. */
export function parseSubscription(body: unknown, policy: EndpointPolicy) {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw invalid('Send a JSON object with event_names, endpoint, signing_key and protocol.');
  }
  const value = body as Record<string, unknown>;
  // Optional in the published reference: without it, every event the service sends.
  const names = value.event_names ?? [COMPLETED_EVENT];
  if (
    !Array.isArray(names) ||
    names.length === 0 ||
    names.length > 20 ||
    names.some((name) => typeof name !== 'string' || name === '' || name.length > 100)
  ) {
    throw invalid('event_names must be a non-empty array of event names, e.g. ["v2rx.completed"].');
  }
  let endpoint: URL;
  try {
    if (typeof value.endpoint !== 'string' || value.endpoint.length > 2048) throw new Error();
    endpoint = new URL(value.endpoint);
  } catch {
    throw invalid('endpoint must be the absolute URL of a publicly reachable receiver.');
  }
  const protocol = value.protocol ?? endpoint.protocol.replace(/:$/, '');
  if (protocol !== 'https' && protocol !== 'http') throw invalid('protocol must be "https".');
  if (endpoint.protocol !== `${protocol}:`) {
    throw invalid(
      `protocol is "${protocol}" but the endpoint URL uses ${endpoint.protocol.replace(/:$/, '')}.`,
    );
  }
  const refusal = policy.refusal(endpoint);
  if (refusal) throw invalid(`This endpoint is not allowed: ${refusal}.`);
  const signingKey = value.signing_key;
  if (
    signingKey !== undefined &&
    (typeof signingKey !== 'string' || signingKey.length < 8 || signingKey.length > 256)
  ) {
    throw invalid(
      'signing_key must be a string of 8 to 256 characters, or left out for unsigned deliveries.',
    );
  }
  return {
    eventNames: names as string[],
    endpoint: endpoint.href,
    signingKey,
    protocol: protocol as 'https' | 'http',
  };
}

const view = (subscription: Subscription) => ({
  id: subscription.id,
  event_names: subscription.eventNames,
  endpoint: subscription.endpoint,
  protocol: subscription.protocol,
  signed: subscription.signingKey !== undefined,
  created_at: subscription.createdAt,
});

const notFound = (res: Response) =>
  res
    .status(404)
    .json({ error: { type: 'not.found', code: 'ERR_NOT_FOUND', message: 'No such subscription.' } });

/** Spec 4.4 (field notes: 201 `{id, status: "success"}`), and reading or deleting one's own. */
export function subscriptionRoutes(
  store: SubscriptionStore,
  auth: RequestHandler,
  json: RequestHandler,
  options: { policy: EndpointPolicy; maxPerClient: number },
): Router {
  const router = Router();
  router.post(SUBSCRIPTIONS_PATH, auth, json, (req, res) => {
    const owner = res.locals.clientId as string;
    const parsed = parseSubscription(req.body, options.policy);
    if (store.of(owner).length >= options.maxPerClient) {
      throw new WorkflowHttpError(
        403,
        'subscription.limit',
        'ERR_SUBSCRIPTION_LIMIT',
        `This client holds ${options.maxPerClient} subscriptions already: delete one first.`,
      );
    }
    const subscription = store.add({ ...parsed, owner });
    res.status(201).json({ id: subscription.id, status: 'success' });
  });
  router.get(SUBSCRIPTIONS_PATH, auth, (_req, res) => {
    res.json({ data: store.of(res.locals.clientId as string).map(view) });
  });
  router.get(`${SUBSCRIPTIONS_PATH}/:id`, auth, (req, res) => {
    const subscription = store.get(String(req.params.id), res.locals.clientId as string);
    if (subscription) res.json(view(subscription));
    else notFound(res);
  });
  router.delete(`${SUBSCRIPTIONS_PATH}/:id`, auth, (req, res) => {
    // The published reference answers 200 {status, msg}.
    if (store.delete(String(req.params.id), res.locals.clientId as string))
      res.status(200).json({ status: 'success', msg: 'Subscription deleted.' });
    else notFound(res);
  });
  return router;
}

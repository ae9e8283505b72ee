import { jsonBody, serviceMessage } from '../http/body.js';
import { callService, type ServiceContext } from '../http/call.js';
import { TranscriptionError } from './errors.js';
import { COMPLETED_EVENT } from './vocabulary.js';

/** Spec 4.4. */
export const SUBSCRIPTION_PATH = '/notification/v1/connect/webhook/subscriptions';

/** Spec 2.6, in the names callers use. */
export interface WebhookSubscriptionRequest {
  /** The receiver's URL; the service must be able to reach it (spec 6: publicly reachable). */
  endpoint: string;
  /** Secret used to sign deliveries; without one, deliveries are unsigned. */
  signingKey?: string;
  /** Default `['v2rx.completed']`. */
  eventNames?: string[];
  /** Default: the endpoint's scheme (`https` in the spec). */
  protocol?: string;
  signal?: AbortSignal;
}

/** The service answers 201 `{ id, status: 'success' }` (its public documentation of subscriptions). */
export interface WebhookSubscription {
  id: string;
  status: string;
}

function endpointProtocol(endpoint: string): string {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new TranscriptionError(
      'ERR_SUBSCRIPTION_FAILED',
      `The webhook endpoint ${JSON.stringify(endpoint)} is not an absolute URL: give the full https:// address of your receiver.`,
    );
  }
  return url.protocol.replace(/:$/, '');
}

/** Creates the webhook subscription (spec 4.4, done once before the workflow is used). */
export async function createWebhookSubscription(
  context: ServiceContext,
  request: WebhookSubscriptionRequest,
): Promise<WebhookSubscription> {
  const protocol = request.protocol ?? endpointProtocol(request.endpoint);
  const body: Record<string, unknown> = {
    event_names: request.eventNames ?? [COMPLETED_EVENT],
    endpoint: request.endpoint,
    protocol,
  };
  if (request.signingKey !== undefined) body.signing_key = request.signingKey;
  const response = await callService(context, SUBSCRIPTION_PATH, {
    method: 'POST',
    json: body,
    signal: request.signal,
  });
  const answer = await jsonBody(response);
  if (!response.ok) {
    throw new TranscriptionError(
      'ERR_SUBSCRIPTION_FAILED',
      `Creating the webhook subscription failed (HTTP ${response.status}).${serviceMessage(answer)} ` +
        'Check that the endpoint is a publicly reachable URL and that event_names, protocol and signing_key are valid.',
      { status: response.status },
    );
  }
  const record = (answer ?? {}) as Record<string, unknown>;
  if (typeof record.id !== 'string' && typeof record.id !== 'number') {
    throw new TranscriptionError(
      'ERR_RESPONSE_INVALID',
      `The subscription answer (HTTP ${response.status}) has no "id": the path may point at the wrong service.`,
      { status: response.status },
    );
  }
  return { id: String(record.id), status: typeof record.status === 'string' ? record.status : '' };
}

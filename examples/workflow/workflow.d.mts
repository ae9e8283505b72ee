import type { WebhookEvent } from '@jwe-transport/express-middleware';
import type { DecodedResult, WebhookSubscription } from '@jwe-transport/ky-plugin';

export interface UploadedFile {
  name: string;
  size: number;
  sha256: string;
}

export interface WorkflowRun {
  uploaded: UploadedFile[];
  event: WebhookEvent;
  httpStatus: 200 | 206;
  decoded: DecodedResult;
  subscription: WebhookSubscription;
}

export function runWorkflow(options?: {
  log?: (line: string) => void;
  serviceUrl?: string;
  clientId?: string;
  clientSecret?: string;
}): Promise<WorkflowRun>;

import type { TranscriptionStarted } from '@jwe-transport/service-client';
import type {
  DecodedResult,
  SessionResult,
  WebhookSubscription,
} from '@jwe-transport/service-client/transcription';
import type { ReceiverEventLine } from './processes.mjs';

export interface UploadedFile {
  name: string;
  size: number;
  sha256: string;
}

export interface WorkflowRun {
  uploaded: UploadedFile[];
  event: ReceiverEventLine;
  httpStatus: 200 | 206;
  result: SessionResult;
  decoded: DecodedResult;
  subscription: WebhookSubscription;
  started: TranscriptionStarted;
}

export function runWorkflow(options?: {
  log?: (line: string) => void;
  serviceUrl?: string;
  clientId?: string;
  clientSecret?: string;
  receiverPublicUrl?: string;
  webhookTimeoutMs?: number;
}): Promise<WorkflowRun>;

export interface StartedProcess {
  url: string;
  stop(): Promise<void>;
}

/** One line printed by receiver.mjs. */
export interface ReceiverEventLine {
  event: string;
  transaction_id: string;
  status: string | null;
  event_id?: string;
}

export interface ReceiverProcess extends StartedProcess {
  events: ReceiverEventLine[];
  event(transactionId: string): Promise<ReceiverEventLine>;
}

export function startReferenceService(
  env: Record<string, string>,
  options?: { log?: (line: string) => void },
): Promise<StartedProcess>;

export function startReceiverProcess(
  env: Record<string, string>,
  options?: { log?: (line: string) => void },
): Promise<ReceiverProcess>;

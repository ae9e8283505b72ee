/** The one event the service notifies (field notes, "Webhooks"). */
export const COMPLETED_EVENT = 'v2rx.completed';

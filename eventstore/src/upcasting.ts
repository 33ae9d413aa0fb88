import type { RecordedEvent } from './port';

/**
 * Turns an event stored in an older shape into the current one. Upcasters are registered per
 * event type and run in version order, so a v1 event passes through v1→v2 and then v2→v3.
 */
export interface Upcaster {
  type: string;
  fromVersion: number;
  upcast(data: Record<string, unknown>): Record<string, unknown>;
}

export function upcast(event: RecordedEvent, upcasters: readonly Upcaster[]): RecordedEvent {
  let version = event.metadata.schemaVersion;
  let data = event.data;
  for (;;) {
    const next = upcasters.find((u) => u.type === event.type && u.fromVersion === version);
    if (!next) break;
    data = next.upcast(data);
    version += 1;
  }
  if (version === event.metadata.schemaVersion) return event;
  return { ...event, data, metadata: { ...event.metadata, schemaVersion: version } };
}

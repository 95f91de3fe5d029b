import { processSlot } from '@/lib/process-state';
/**
 * The newest catalog version this process has seen per Site, from the credential lookup
 * every request makes. Work that follows catalog changes (rendering pages ahead) looks here
 * for free and asks the database only when it moved, or now and then: an idle instance
 * then sends a hosted database next to nothing. Process-wide (lib/process-state), because requests
 * run in the routes' bundles and background jobs in instrumentation's.
 */
type Seen = { versions: Map<string, number>; changes: number };

function seen(): Seen {
  return processSlot<Seen>('seenCatalogVersions', () => ({ versions: new Map(), changes: 0 }));
}

export function noteCatalogVersion(siteId: string, version: number): void {
  const state = seen();
  if (state.versions.get(siteId) === version) return;
  state.versions.set(siteId, version);
  state.changes += 1;
}

/** A count that moves whenever any Site's catalog version seen here moved. */
export function catalogChangesSeen(): number {
  return seen().changes;
}

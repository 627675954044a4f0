import type { Geofence } from "./types";

/**
 * What another edit changed between two versions of a geofence, in words ("the description (now
 * “Gate B”)", "the shape"), for the dashboard's edit conflict: the reader decides whether to
 * reload rather than guessing what the 412 means.
 */
export function changesBetween(before: Geofence, after: Geofence): string[] {
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  const changes: string[] = [];
  const text = (label: string, a: string | undefined, b: string | undefined) => {
    if (!same(a, b)) changes.push(b ? `the ${label} (now “${b}”)` : `the ${label} (now empty)`);
  };
  text("description", before.description, after.description);
  text("tag", before.tag, after.tag);
  text("external ID", before.externalId, after.externalId);
  if (
    before.type !== after.type ||
    !same(before.geometryCenter, after.geometryCenter) ||
    before.geometryRadius !== after.geometryRadius ||
    (before.type === "polygon" && !same(before.geometry, after.geometry))
  ) {
    changes.push("the shape");
  }
  if (!same(before.metadata, after.metadata)) changes.push("the metadata");
  if (before.enabled !== after.enabled) changes.push(after.enabled ? "enabled it" : "disabled it");
  if (!same(before.dwellThreshold, after.dwellThreshold)) {
    changes.push(`the dwell threshold (now ${after.dwellThreshold ?? 5} min)`);
  }
  if (!same(before.userIds, after.userIds)) {
    changes.push(after.userIds ? `the users (now ${after.userIds.join(", ")})` : "the users (now everyone)");
  }
  if (!!before.stopDetection !== !!after.stopDetection) {
    changes.push(after.stopDetection ? "entries only when stopped" : "entries whether stopped or not");
  }
  text("time it is disabled", before.disableAfter, after.disableAfter);
  text("time it is deleted", before.deleteAfter, after.deleteAfter);
  return changes;
}

-- Radar's event.replayed (both SDKs read it): the event was made from a location the SDK stored
-- offline and sent later (POST /v1/track/replay, or a track body with replayed: true).
ALTER TABLE "Event" ADD COLUMN "replayed" BOOLEAN NOT NULL DEFAULT false;

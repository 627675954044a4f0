-- What a kind of event says of what the event is about when it has no column of its own (a
-- beacon's `beacon`): the wire fields, merged into the event's wire form. A new kind of event
-- adds no column to Event (docs/architecture.md, "A new kind of event").
ALTER TABLE "Event" ADD COLUMN "kindFields" JSONB;
